/// A table as sync sees it: its stored columns in record order, which of them sync, and its key.
///
/// Read from the database's schema (never from anything a server sent), so every identifier sync puts
/// in SQL text comes from here. A class: every logged change refers to its table, and a reference is
/// one retain where a copy of the struct was one per array it holds.
final class SyncedTable: Sendable {
    /// The name as the schema spells it.
    let name: String
    /// The stored columns in the order the change log's records hold them.
    let storedColumns: [String]
    /// For each stored column, whether it syncs (generated columns do not: each device computes them).
    let syncs: [Bool]
    /// The key column's position among ``storedColumns``.
    let keyPosition: Int
    /// Whether updates carry the whole row (row-level last-writer-wins) instead of their columns.
    let rowLevel: Bool
    /// Declared type, `NOT NULL`, default and key flag per stored column, for the schema check.
    let shapes: [ColumnShape]
    /// Lowercased name → stored position, for the columns that sync.
    let positions: [String: Int]
    /// The statement that writes a whole row (every synced column), or updates it when its key is
    /// there: what most pulled inserts need, built once.
    let wholeRowUpsert: String
    /// Its foreign keys, and the lowercased names of their one-column child columns (the columns whose
    /// previous values sync keeps, see ``PreviousValues``).
    let foreignKeys: [SyncForeignKey]
    let foreignKeyColumns: [String]
    /// The lowercased names of its collaborative text columns (``SyncOptions/collaborativeText``).
    let collaborativeColumns: Set<String>

    init(
        name: String, storedColumns: [String], syncs: [Bool], keyPosition: Int, rowLevel: Bool, shapes: [ColumnShape],
        foreignKeys: [SyncForeignKey] = [], collaborativeColumns: Set<String> = []
    ) {
        self.collaborativeColumns = collaborativeColumns
        self.foreignKeys = foreignKeys
        self.foreignKeyColumns = foreignKeys.compactMap { $0.column?.lowercased() }
        self.name = name
        self.storedColumns = storedColumns
        self.syncs = syncs
        self.keyPosition = keyPosition
        self.rowLevel = rowLevel
        self.shapes = shapes
        var positions: [String: Int] = [:]
        for (index, column) in storedColumns.enumerated() where syncs[index] && positions[column.lowercased()] == nil {
            positions[column.lowercased()] = index
        }
        self.positions = positions
        let ordered = [keyPosition] + storedColumns.indices.filter { syncs[$0] && $0 != keyPosition }
        let quoted = ordered.map { SQLIdentifier.quote(storedColumns[$0]) }
        let updates = quoted.dropFirst().map { "\($0) = excluded.\($0)" }
        self.wholeRowUpsert = "INSERT INTO \(SQLIdentifier.quote(name))(\(quoted.joined(separator: ", "))) VALUES ("
            + Array(repeating: "?", count: quoted.count).joined(separator: ", ") + ") ON CONFLICT(\(quoted[0])) "
            + (updates.isEmpty ? "DO NOTHING" : "DO UPDATE SET " + updates.joined(separator: ", "))
        self.wholeRowsInsertPrefix = "INSERT INTO \(SQLIdentifier.quote(name))(\(quoted.joined(separator: ", "))) VALUES "
        self.wholeRowPlaceholders = "(" + Array(repeating: "?", count: quoted.count).joined(separator: ", ") + ")"
        self.fullWholeRowsInsert = wholeRowsInsertPrefix
            + Array(repeating: wholeRowPlaceholders, count: RowProjector.rowsPerInsert).joined(separator: ", ")
        self.wholeRowOrder = ordered.map { storedColumns[$0].lowercased() }
        self.lowercasedColumns = storedColumns.map { $0.lowercased() }
        self.lowercasedName = name.lowercased()
    }

    private let wholeRowsInsertPrefix: String
    private let wholeRowPlaceholders: String
    /// ``wholeRowsInsert(count:)`` for the rows of a full statement, built once.
    private let fullWholeRowsInsert: String

    /// The statement that inserts `count` whole rows (every synced column, in ``wholeRowOrder``).
    func wholeRowsInsert(count: Int) -> String {
        if count == RowProjector.rowsPerInsert { return fullWholeRowsInsert }
        return wholeRowsInsertPrefix + Array(repeating: wholeRowPlaceholders, count: count).joined(separator: ", ")
    }

    /// The lowercased column names in ``wholeRowUpsert``'s order (the key first).
    let wholeRowOrder: [String]
    /// The stored columns' names, lowercased (the names changes carry).
    let lowercasedColumns: [String]
    /// The table's name, lowercased.
    let lowercasedName: String

    var keyColumn: String { storedColumns[keyPosition] }

    /// `values` by column name as the schema spells it (changes and states carry names lowercased);
    /// a name the table lacks (a column of a newer app version) stays as it came.
    /// What the table shows for `value` kept for column `name` (lowercased): a collaborative text
    /// column's string, any other column's value as it is, whatever its bytes.
    func shown(_ value: DatabaseValue, column name: String) -> DatabaseValue {
        collaborativeColumns.contains(name) ? CollaborativeTextValue.shown(value) : value
    }

    /// `values` by lowercased column name as the table shows them (``shown(_:column:)``).
    func shownValues(_ values: [String: DatabaseValue]) -> [String: DatabaseValue] {
        guard !collaborativeColumns.isEmpty else { return values }
        var shown = values
        for (name, value) in values where collaborativeColumns.contains(name.lowercased()) { shown[name] = CollaborativeTextValue.shown(value) }
        return shown
    }

    func declaredNames(_ values: [String: DatabaseValue]) -> [String: DatabaseValue] {
        var named: [String: DatabaseValue] = [:]
        named.reserveCapacity(values.count)
        for (name, value) in values {
            named[positions[name.lowercased()].map { storedColumns[$0] } ?? name] = value
        }
        return named
    }

    /// The synced columns' names.
    var syncedColumns: [String] { storedColumns.indices.filter { syncs[$0] }.map { storedColumns[$0] } }

    /// The stored position of the column named `name` (case-insensitive), `nil` when there is none or it
    /// does not sync.
    func position(of name: String) -> Int? {
        if let index = positions[name] { return index }
        return positions[name.lowercased()]
    }

    /// A column as the schema declares it.
    struct ColumnShape: Sendable, Hashable {
        let name: String
        let type: String
        let notNull: Bool
        let hasDefault: Bool
        let isKey: Bool
        /// The default's SQL expression as the local schema declares it, `nil` when there is none.
        let defaultSQL: String?
    }
}

extension SyncedTable {
    /// Reads `table` and checks that it can sync.
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/syncConfiguration(table:reason:)`` naming the table and the reason.
    static func read(
        _ table: String, rowLevel: Bool, collaborative: Set<String> = [], from connection: DatabaseConnection
    ) throws -> SyncedTable {
        let lowered = table.lowercased()
        if lowered.hasPrefix("boutique_") || lowered.hasPrefix("turso_") || lowered.hasPrefix("sqlite_") {
            throw BoutiqueError.syncConfiguration(table: table, reason: "it is a table of BoutiqueDB, Turso or SQLite, not of the app")
        }
        guard let object = try connection.fetchOne(
            "SELECT name, wr, type FROM pragma_table_list WHERE schema = 'main' AND type IN ('table', 'virtual', 'shadow') AND name = ? COLLATE NOCASE",
            [.text(table)])
        else {
            throw BoutiqueError.syncConfiguration(table: table, reason: "no such table in the database")
        }
        try refuseDerived(table, type: object.values[2], on: connection)
        guard case .text(let name) = object.values[0] else {
            throw BoutiqueError.syncConfiguration(table: table, reason: "no such table in the database")
        }
        let withoutRowID = object.values[1] == .integer(1)
        let columns = try connection.fetchAll(
            "SELECT name, type, pk, hidden, \"notnull\", dflt_value FROM pragma_table_xinfo(?, 'main') ORDER BY cid", [.text(name)])
        var stored: [String] = []
        var syncs: [Bool] = []
        var shapes: [ColumnShape] = []
        var keys: [(position: Int, type: String)] = []
        for column in columns {
            guard case .text(let columnName) = column.values[0] else { continue }
            let type = if case .text(let declared) = column.values[1] { declared } else { "" }
            let hidden: Int64 = if case .integer(let value) = column.values[3] { value } else { 0 }
            // 1: a virtual table's hidden column; 2: a virtual generated column (not in records).
            if hidden == 1 || hidden == 2 { continue }
            let isKey = column.values[2] != .integer(0)
            if isKey { keys.append((stored.count, type)) }
            stored.append(columnName)
            syncs.append(hidden != 3)
            shapes.append(ColumnShape(
                name: columnName, type: type.uppercased(), notNull: column.values[4] == .integer(1),
                hasDefault: !column.values[5].isNull, isKey: isKey, defaultSQL: column.values[5].textValue))
        }
        guard !keys.isEmpty else {
            throw BoutiqueError.syncConfiguration(
                table: name, reason: "it has no primary key: its rows are known by rowids, which collide between devices")
        }
        guard keys.count == 1, let key = keys.first else {
            throw BoutiqueError.syncConfiguration(
                table: name, reason: "its primary key has \(keys.count) columns; sync needs one UUID or text key")
        }
        // A key without a declared type takes any value as it comes (an integer stays an integer), and
        // sync carries only text and blob keys: such a table would sync some rows and silently not others.
        guard !key.type.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw BoutiqueError.syncConfiguration(
                table: name,
                reason: "its key '\(stored[key.position])' has no declared type, so it can hold any value; declare it TEXT (a UUID or text key) or BLOB")
        }
        let affinity = Affinity(declaredType: key.type)
        if !withoutRowID, key.type.uppercased() == "INTEGER" {
            throw BoutiqueError.syncConfiguration(
                table: name, reason: "its INTEGER PRIMARY KEY is the rowid, which collides between devices; use a UUID or text key")
        }
        guard affinity == .text || affinity == .blob else {
            throw BoutiqueError.syncConfiguration(
                table: name, reason: "its key '\(stored[key.position])' has \(affinity) affinity; sync needs a UUID (text or blob) or text key")
        }
        for index in try connection.fetchAll("SELECT name, \"unique\", origin FROM pragma_index_list(?)", [.text(name)]) {
            guard index.values[1] == .integer(1), index.values[2] != .text("pk") else { continue }
            throw BoutiqueError.syncConfiguration(
                table: name,
                reason: "it has a UNIQUE constraint or index (\(index.values[0])) besides its key: unique values collide between devices")
        }
        let foreignKeys = try SyncForeignKey.read(table: name, sql: SQLRunner(connection))
        try CollaborativeColumns.check(collaborative, of: name, shapes: shapes, rowLevel: rowLevel, foreignKeys: foreignKeys)
        return SyncedTable(
            name: name, storedColumns: stored, syncs: syncs, keyPosition: key.position, rowLevel: rowLevel, shapes: shapes,
            foreignKeys: foreignKeys, collaborativeColumns: collaborative)
    }

    /// Refuses a virtual table, such as an FTS5 full-text index, and the tables SQLite's modules keep
    /// for one (`x_data`, `x_idx`, …): their rows are not in the change log, and an index is derived
    /// from its content table, which is what syncs. Each device's triggers index the rows it pulls.
    private static func refuseDerived(_ table: String, type: DatabaseValue, on connection: DatabaseConnection) throws {
        switch type {
        case .text("virtual"):
            let sql = try connection.fetchOne(
                "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ? COLLATE NOCASE", [.text(table)])
            if let sql = sql?.values.first?.textValue, let declaration = FTS5Declaration.parse(sql) {
                if let content = declaration.contentTable, !content.isEmpty {
                    throw BoutiqueError.syncConfiguration(
                        table: table,
                        reason: "it is an FTS5 full-text index, which each device builds itself; sync its content table '\(content)' instead")
                }
                throw BoutiqueError.syncConfiguration(
                    table: table,
                    reason: "it is an FTS5 table, whose rows are not in the change log; keep the text in an ordinary table, synced, and index it with createFTS5Table")
            }
            throw BoutiqueError.syncConfiguration(
                table: table, reason: "it is a virtual table, whose rows are not in the change log")
        case .text("shadow"):
            throw BoutiqueError.syncConfiguration(
                table: table,
                reason: "it is storage SQLite keeps for a virtual table (such as an FTS5 full-text index), not a table of the app")
        default:
            return
        }
    }

    /// SQLite's type affinity rules (datatype3.html, section 3.1).
    enum Affinity: CustomStringConvertible {
        case integer, text, blob, real, numeric

        init(declaredType: String) {
            let type = declaredType.uppercased()
            if type.contains("INT") {
                self = .integer
            } else if type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") {
                self = .text
            } else if type.isEmpty || type.contains("BLOB") {
                self = .blob
            } else if type.contains("REAL") || type.contains("FLOA") || type.contains("DOUB") {
                self = .real
            } else {
                self = .numeric
            }
        }

        var description: String {
            switch self {
            case .integer: "INTEGER"
            case .text: "TEXT"
            case .blob: "BLOB"
            case .real: "REAL"
            case .numeric: "NUMERIC"
            }
        }
    }
}
