import BoutiqueSQLite

/// How a table's rows are laid out in records: its stored columns, key and rowid.
///
/// ```swift
/// let layout = try TableLayout.read("note", from: connection)
/// layout.storedColumns        // ["id", "title", "body", "updatedAt"]
/// layout.isWithoutRowID       // false
/// ```
///
/// A record holds one value per stored column in table order; virtual generated columns are computed
/// on read and are not in it. A class, so that looking one up for each change copies no arrays.
final class TableLayout: Sendable {
    /// The stored columns, in table order, lowercased for lookups.
    let storedColumns: [String]
    /// The stored columns as the schema spells them.
    let storedColumnNames: [String]
    /// Whether each stored column has REAL affinity.
    let realAffinity: [Bool]
    /// The number of columns, virtual ones included.
    let columnCount: Int
    /// The positions, among all columns, of the virtual generated ones.
    let virtualPositions: [Int]
    /// `true` for a `WITHOUT ROWID` table, whose rows are identified by their primary key.
    let isWithoutRowID: Bool
    /// The positions, among the stored columns, of the primary key's columns, in key order.
    let primaryKeyPositions: [Int]
    /// Whether any stored column has REAL affinity.
    let hasRealColumns: Bool

    init(
        storedColumns: [String], storedColumnNames: [String], realAffinity: [Bool], columnCount: Int,
        virtualPositions: [Int], isWithoutRowID: Bool, primaryKeyPositions: [Int]
    ) {
        self.storedColumns = storedColumns
        self.storedColumnNames = storedColumnNames
        self.realAffinity = realAffinity
        self.columnCount = columnCount
        self.virtualPositions = virtualPositions
        self.isWithoutRowID = isWithoutRowID
        self.primaryKeyPositions = primaryKeyPositions
        self.hasRealColumns = realAffinity.contains(true)
    }

    /// The layout of the stored columns of `sqlite_schema` itself.
    static let schemaTable = TableLayout(
        storedColumns: ["type", "name", "tbl_name", "rootpage", "sql"],
        storedColumnNames: ["type", "name", "tbl_name", "rootpage", "sql"], realAffinity: Array(repeating: false, count: 5),
        columnCount: 5, virtualPositions: [],
        isWithoutRowID: false, primaryKeyPositions: [])

    /// Reads the layout of `table` in the main database; `nil` when there is no such table.
    static func read(_ table: String, from connection: Connection) throws(SQLiteError) -> TableLayout? {
        if table.lowercased() == "sqlite_schema" || table.lowercased() == "sqlite_master" { return schemaTable }
        let columns = try connection.fetchRows(
            "SELECT name, pk, hidden, type FROM pragma_table_xinfo(?, 'main') ORDER BY cid", [.text(table)]).rows
        guard !columns.isEmpty else { return nil }
        let withoutRowID = try connection.fetchValue(
            "SELECT wr FROM pragma_table_list WHERE schema = 'main' AND name = ?", [.text(table)])
        var stored: [String] = []
        var real: [Bool] = []
        var virtual: [Int] = []
        var keyed: [(order: Int64, position: Int)] = []
        for (position, column) in columns.enumerated() {
            let hidden = column.count > 2 ? column[2] : .null
            // `hidden` is 2 for a virtual generated column (3 for a stored one, which is in the record).
            if hidden == .integer(2) {
                virtual.append(position)
                continue
            }
            if case .integer(let order) = column.count > 1 ? column[1] : .null, order > 0 {
                keyed.append((order, stored.count))
            }
            if case .text(let name) = column[0] { stored.append(name) } else { stored.append("") }
            if case .text(let type) = column.count > 3 ? column[3] : .null { real.append(Self.hasRealAffinity(type)) } else {
                real.append(false)
            }
        }
        return TableLayout(
            storedColumns: stored.map { $0.lowercased() }, storedColumnNames: stored, realAffinity: real,
            columnCount: columns.count, virtualPositions: virtual,
            isWithoutRowID: withoutRowID == .integer(1),
            primaryKeyPositions: keyed.sorted { $0.order < $1.order }.map(\.position))
    }

    /// The stored values of a row the preupdate hook reported.
    ///
    /// SQLite reports the stored columns of a table with virtual columns by storage position, and reading
    /// past them fails, so the hook keeps only the values it could read. Should a SQLite report every
    /// column (virtual ones computed), those are dropped here.
    ///
    /// A REAL column stores a whole number as an integer to save space and reads it back as a REAL; the
    /// preupdate hook shows a new row as stored, so such values are turned back into REALs, as every
    /// reader of the row (and Turso's log) sees them.
    func storedValues(_ values: [DatabaseValue], table: String) throws(BoutiqueError) -> [DatabaseValue] {
        var stored: [DatabaseValue]
        if values.count == storedColumns.count {
            guard hasRealColumns else { return values }
            stored = values
        } else if values.count == columnCount {
            let virtual = Set(virtualPositions)
            stored = values.enumerated().filter { !virtual.contains($0.offset) }.map(\.element)
        } else {
            throw .invalidArgument(
                "change capture read \(values.count) values from a row of \(table), which stores \(storedColumns.count)")
        }
        for index in stored.indices where realAffinity.indices.contains(index) && realAffinity[index] {
            if case .integer(let integer) = stored[index] { stored[index] = .real(Double(integer)) }
        }
        return stored
    }

    /// SQLite's rule for REAL affinity: the declared type names no INT, CHAR, CLOB, TEXT or BLOB and
    /// contains REAL, FLOA or DOUB.
    static func hasRealAffinity(_ declaredType: String) -> Bool {
        let type = declaredType.uppercased()
        // Two lists rather than one chain of `||`, which took the type checker over 100 ms.
        let notReal: [String] = ["INT", "CHAR", "CLOB", "TEXT", "BLOB"]
        let real: [String] = ["REAL", "FLOA", "DOUB"]
        if notReal.contains(where: { type.contains($0) }) { return false }
        return real.contains(where: { type.contains($0) })
    }

    /// The value that identifies a row of a `WITHOUT ROWID` table in the log's `id` column: the key's
    /// value, or for a key of several columns the record of their values.
    func keyIdentifier(_ values: [DatabaseValue]) -> DatabaseValue {
        let key = primaryKeyPositions.map { values.indices.contains($0) ? values[$0] : .null }
        if key.count == 1 { return key[0] }
        return .blob(RecordEncoder.encode(key))
    }
}
