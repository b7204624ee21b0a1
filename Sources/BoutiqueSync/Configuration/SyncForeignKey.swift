/// A foreign key of a synced table, as the local schema declares it: what a row added under a parent
/// deleted on another device turns into (``OrphanRepair``).
struct SyncForeignKey: Sendable, Hashable {
    /// What the schema says happens to a child when its parent is deleted.
    enum DeleteAction: Sendable, Hashable {
        /// `CASCADE`, and also `RESTRICT` and `NO ACTION`: a parent deleted elsewhere cannot be
        /// restricted after the fact, so its children go with it, as a cascade would take them.
        case remove
        /// `SET NULL`.
        case setNull
        /// `SET DEFAULT`.
        case setDefault

        init(declared: String) {
            switch declared.uppercased() {
            case "SET NULL": self = .setNull
            case "SET DEFAULT": self = .setDefault
            default: self = .remove
            }
        }
    }

    /// The parent table's name as the schema spells it.
    let parent: String
    /// The child's columns (stored names), in the key's order.
    let from: [String]
    /// The parent's columns they match, in the same order.
    let to: [String]
    /// The declared `ON DELETE` action.
    let onDelete: DeleteAction

    /// The child's column when the key has one column (every key into a synced table has: sync needs a
    /// one-column primary key and refuses other unique constraints).
    var column: String? { from.count == 1 ? from.first : nil }

    /// The foreign keys of `table`, read from the schema.
    static func read(table: String, sql: SQLRunner) throws -> [SyncForeignKey] {
        let rows = try sql.rows(
            #"SELECT id, "table", "from", "to", on_delete FROM pragma_foreign_key_list(?) ORDER BY id, seq"#, [.text(table)])
        var keys: [SyncForeignKey] = []
        var index = 0
        while index < rows.count {
            let id = rows[index][0]
            let group = rows[index...].prefix { $0[0] == id }
            index += group.count
            guard let parent = group.first?[1].textValue else { continue }
            let from = group.compactMap { $0[2].textValue }
            var to = group.compactMap { $0[3].textValue }
            if to.count != from.count {
                // `REFERENCES parent` without columns: the parent's primary key, in its order.
                to = try sql.rows("SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk", [.text(parent)])
                    .compactMap { $0.first?.textValue }
            }
            guard !from.isEmpty, to.count == from.count else { continue }
            keys.append(SyncForeignKey(
                parent: parent, from: from, to: to, onDelete: DeleteAction(declared: group.first?[4].textValue ?? "")))
        }
        return keys
    }

    /// Whether the parent has a row whose key columns hold `value` (the key must have one column).
    func parentExists(_ value: DatabaseValue, sql: SQLRunner) throws -> Bool {
        guard let target = to.first, to.count == 1 else { return false }
        if value.isNull { return true }
        return try sql.value(
            "SELECT 1 FROM \(SQLIdentifier.quote(parent)) WHERE \(SQLIdentifier.quote(target)) = ? LIMIT 1", [value]) != nil
    }
}
