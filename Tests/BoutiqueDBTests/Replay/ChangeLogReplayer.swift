import BoutiqueSQLite
import Foundation

/// Applies `turso_cdc` rows to a copy of a database, as a reader that knows only the log would.
///
/// ```swift
/// let replica = try Connection(path: copyTakenAtToken.path)
/// try ChangeLogReplayer(replica).apply(try ChangeLogReplayer.rows(of: original, after: token))
/// ```
///
/// The rules: an insert puts `after` at `id`, an update overwrites the row at `id` with `after`, a
/// delete removes the row at `id` (by key for a `WITHOUT ROWID` table); a `sqlite_schema` insert runs
/// the object's `CREATE` text, a delete drops the object, an update runs the `ALTER TABLE` statement its
/// `updates` record carries (or, for an index, view or trigger SQLite rewrote along with a table, puts
/// the new definition in place unless the object already has it). Foreign keys and triggers are off:
/// what they did is in the log as changes of its own. Every value is bound; names come from the log
/// and are quoted.
struct ChangeLogReplayer {
    /// One row of the log.
    struct Row: CustomStringConvertible, Sendable {
        var changeID: Int64
        var type: Int64
        var table: String?
        var id: DatabaseValue
        var before: [DatabaseValue]?
        var after: [DatabaseValue]?
        var updates: [DatabaseValue]?

        var description: String {
            "#\(changeID) type \(type) \(table ?? "-") id \(id) after \(after.map { "\($0)" } ?? "nil") updates \(updates.map { "\($0)" } ?? "nil")"
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let replica: Connection

    init(_ replica: Connection) throws {
        self.replica = replica
        try replica.setForeignKeysEnabled(false)
        try replica.setTriggersEnabled(false)
    }

    /// The log's rows of `database` after `changeID`, records decoded.
    static func rows(of database: Connection, after changeID: Int64) throws -> [Row] {
        try database.fetchRows(
            "SELECT change_id, change_type, table_name, id, \"before\", \"after\", updates FROM turso_cdc WHERE change_id > ? ORDER BY change_id",
            [.integer(changeID)]
        ).rows.map { values in
            func record(_ value: DatabaseValue) throws -> [DatabaseValue]? {
                guard case .blob(let bytes) = value else { return nil }
                return try RecordDecoder.decode(bytes)
            }
            guard case .integer(let changeID) = values[0], case .integer(let type) = values[1] else {
                throw Failure(description: "a log row without id or type: \(values)")
            }
            let table: String? = if case .text(let name) = values[2] { name } else { nil }
            return Row(
                changeID: changeID, type: type, table: table, id: values[3], before: try record(values[4]),
                after: try record(values[5]), updates: try record(values[6]))
        }
    }

    func apply(_ rows: [Row]) throws {
        try replica.execute("BEGIN")
        do {
            for row in rows { try apply(row) }
            try replica.execute("COMMIT")
        } catch {
            try? replica.execute("ROLLBACK")
            throw error
        }
    }

    func apply(_ row: Row) throws {
        guard row.type != 2, let table = row.table else { return }
        do {
            if table == "sqlite_schema" {
                try applySchema(row)
            } else {
                try applyRow(row, table: table)
            }
        } catch {
            throw Failure(description: "replaying \(row): \(error)")
        }
    }

    // MARK: Rows

    private func applyRow(_ row: Row, table: String) throws {
        let layout = try ReplicaTable.read(table, from: replica)
        let name = SQLIdentifier.quote(table)
        switch row.type {
        case 1:
            guard let after = row.after else { throw Failure(description: "an insert without after") }
            let (columns, values) = try layout.writable(after)
            var names = columns.map(SQLIdentifier.quote)
            var bound = values
            if layout.hasHiddenRowID {
                names.insert("rowid", at: 0)
                bound.insert(row.id, at: 0)
            }
            let marks = Array(repeating: "?", count: bound.count).joined(separator: ", ")
            try replica.execute("INSERT INTO \(name) (\(names.joined(separator: ", "))) VALUES (\(marks))", bound)
        case 0:
            guard let after = row.after else { throw Failure(description: "an update without after") }
            let (columns, values) = try layout.writable(after)
            let assignments = columns.map { "\(SQLIdentifier.quote($0)) = ?" }.joined(separator: ", ")
            let (condition, key) = try layout.locate(row)
            try replica.execute("UPDATE \(name) SET \(assignments) WHERE \(condition)", values + key)
            guard replica.changes == 1 else { throw Failure(description: "the update found \(replica.changes) rows") }
        case -1:
            let (condition, key) = try layout.locate(row)
            try replica.execute("DELETE FROM \(name) WHERE \(condition)", key)
            guard replica.changes == 1 else { throw Failure(description: "the delete found \(replica.changes) rows") }
        default:
            throw Failure(description: "an unknown change type")
        }
    }

    // MARK: Schema

    private func applySchema(_ row: Row) throws {
        switch row.type {
        case 1:
            guard let after = row.after, after.count == 5 else { throw Failure(description: "a schema insert without after") }
            // Automatic indexes have no text: their table's CREATE made them.
            guard case .text(let sql) = after[4] else { return }
            try replica.execute(sql)
        case -1:
            guard let before = row.before, before.count == 5, case .text(let type) = before[0], case .text(let name) = before[1]
            else { throw Failure(description: "a schema delete without before") }
            guard ["table", "index", "view", "trigger"].contains(type), !name.hasPrefix("sqlite_autoindex") else { return }
            try replica.execute("DROP \(type.uppercased()) IF EXISTS \(SQLIdentifier.quote(name))")
        case 0:
            guard let after = row.after, after.count == 5, case .text(let type) = after[0], case .text(let name) = after[1]
            else { throw Failure(description: "a schema update without after") }
            let flags = row.updates.map { Array($0.prefix(5)) } ?? []
            if flags.count == 5, flags[4] == .integer(1), let statement = row.updates?[9], statement != after[4],
                case .text(let alter) = statement
            {
                try replica.execute(alter)
                return
            }
            let current = try replica.fetchValue(
                "SELECT sql FROM sqlite_schema WHERE name = ? COLLATE NOCASE", [.text(name)])
            guard current != after[4] else { return }
            guard type != "table", case .text(let sql) = after[4] else {
                throw Failure(description: "\(name) is \(current.map { "\($0)" } ?? "missing"), the log says \(after[4])")
            }
            try replica.execute("DROP \(type.uppercased()) IF EXISTS \(SQLIdentifier.quote(name))")
            try replica.execute(sql)
        default:
            throw Failure(description: "an unknown schema change type")
        }
    }
}

/// A table of the replica as the replayer writes it: its stored columns, which of them can be written,
/// and how a row is found.
struct ReplicaTable {
    var storedColumns: [String]
    /// For each stored column, whether a statement may write it (not a generated column).
    var writable: [Bool]
    var isWithoutRowID: Bool
    /// The positions, among the stored columns, of the primary key, in key order.
    var keyPositions: [Int]
    /// A rowid table without an INTEGER PRIMARY KEY: its rowid is written explicitly.
    var hasHiddenRowID: Bool

    static func read(_ table: String, from connection: Connection) throws -> ReplicaTable {
        let columns = try connection.fetchRows(
            "SELECT name, type, pk, hidden FROM pragma_table_xinfo(?, 'main') ORDER BY cid", [.text(table)]).rows
        guard !columns.isEmpty else { throw ChangeLogReplayer.Failure(description: "the replica has no table \(table)") }
        let withoutRowID = try connection.fetchValue(
            "SELECT wr FROM pragma_table_list WHERE schema = 'main' AND name = ?", [.text(table)]) == .integer(1)
        var layout = ReplicaTable(storedColumns: [], writable: [], isWithoutRowID: withoutRowID, keyPositions: [], hasHiddenRowID: false)
        var keyed: [(Int64, Int)] = []
        var integerKey = false
        for column in columns {
            guard case .text(let name) = column[0] else { continue }
            if column[3] == .integer(2) { continue }  // virtual: not in the record
            if case .integer(let order) = column[2], order > 0 {
                keyed.append((order, layout.storedColumns.count))
                if case .text(let type) = column[1], type.uppercased() == "INTEGER" { integerKey = true }
            }
            layout.storedColumns.append(name)
            layout.writable.append(column[3] != .integer(3))
        }
        layout.keyPositions = keyed.sorted { $0.0 < $1.0 }.map(\.1)
        layout.hasHiddenRowID = !withoutRowID && !(keyed.count == 1 && integerKey)
        return layout
    }

    /// The writable columns and their values from a record of the stored columns.
    func writable(_ record: [DatabaseValue]) throws -> ([String], [DatabaseValue]) {
        guard record.count == storedColumns.count else {
            throw ChangeLogReplayer.Failure(description: "a record of \(record.count) values for \(storedColumns)")
        }
        let positions = storedColumns.indices.filter { writable[$0] }
        return (positions.map { storedColumns[$0] }, positions.map { record[$0] })
    }

    /// The condition and values that find the row a change is about.
    func locate(_ row: ChangeLogReplayer.Row) throws -> (String, [DatabaseValue]) {
        guard isWithoutRowID else { return ("rowid = ?", [row.id]) }
        guard let image = row.before ?? row.after, image.count == storedColumns.count else {
            throw ChangeLogReplayer.Failure(description: "a change of a WITHOUT ROWID table without its key")
        }
        let condition = keyPositions.map { "\(SQLIdentifier.quote(storedColumns[$0])) IS ?" }.joined(separator: " AND ")
        return (condition, keyPositions.map { image[$0] })
    }
}
