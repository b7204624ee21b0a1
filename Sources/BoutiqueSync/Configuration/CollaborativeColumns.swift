/// The columns an app names as collaborative text (``SyncOptions/collaborativeText``), read and
/// checked when ``BoutiqueSync`` is created: a name that is not a TEXT column of a synced table is
/// refused there, not found wrong at the first edit.
enum CollaborativeColumns {
    /// `table.column` names, lowercased, grouped by table.
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/syncConfiguration(table:reason:)`` for a name without a
    ///   table and a column, or naming a table that does not sync.
    static func parse(_ names: Set<String>, synced tables: [String]) throws -> [String: Set<String>] {
        let synced = Set(tables.map { $0.lowercased() })
        var columns: [String: Set<String>] = [:]
        for name in names.sorted() {
            let parts = name.lowercased().split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw BoutiqueError.syncConfiguration(
                    table: name, reason: "a collaborative text column is named as table.column, like note.body")
            }
            let table = String(parts[0])
            guard synced.contains(table) else {
                throw BoutiqueError.syncConfiguration(
                    table: table, reason: "collaborative text column '\(name)' is not in a synced table")
            }
            columns[table, default: []].insert(String(parts[1]))
        }
        return columns
    }

    /// Checks that each named column of `table` is a TEXT column sync can merge as text: not the key, a
    /// foreign key or generated, and not in a table merged row by row.
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/syncConfiguration(table:reason:)`` naming the column and why.
    static func check(
        _ columns: Set<String>, of table: String, shapes: [SyncedTable.ColumnShape], rowLevel: Bool, foreignKeys: [SyncForeignKey]
    ) throws {
        for column in columns.sorted() {
            guard let shape = shapes.first(where: { $0.name.lowercased() == column }) else {
                throw BoutiqueError.syncConfiguration(table: table, reason: "collaborative text column '\(column)': no such column")
            }
            let reason: String? =
                if shape.isKey { "it is the key" }
                else if SyncedTable.Affinity(declaredType: shape.type) != .text { "it is declared '\(shape.type)', not TEXT" }
                else if foreignKeys.contains(where: { $0.column?.lowercased() == column }) { "it is a foreign key" }
                else if rowLevel { "its table is merged row by row" }
                else { nil }
            if let reason {
                throw BoutiqueError.syncConfiguration(
                    table: table, reason: "column '\(shape.name)' cannot be collaborative text: \(reason)")
            }
        }
    }
}
