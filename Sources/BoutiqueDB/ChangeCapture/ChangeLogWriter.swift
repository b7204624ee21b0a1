import BoutiqueSQLite
import Foundation

/// Appends a transaction's rows to `turso_cdc`, inside that transaction.
///
/// ```swift
/// let token = try ChangeLogWriter.append(rows, on: writer)   // the COMMIT row's change_id
/// ```
///
/// Ids are given explicitly, from the larger of the AUTOINCREMENT counter and the largest id present,
/// so that the transaction id (the first row's id) is known before the first row is written and no
/// row needs a second write. Explicit ids keep `sqlite_sequence` current as AUTOINCREMENT requires.
enum ChangeLogWriter {
    /// How many rows one `INSERT` carries: fewer statement executions for large transactions.
    private static let batch = 32

    /// Writes `rows` and a COMMIT row, returning the COMMIT row's `change_id`.
    static func append(_ rows: [ChangeLogRow], firstID: Int64, time: Int64, on connection: Connection) throws -> Int64 {
        let commitID = firstID + Int64(rows.count)
        var index = 0
        var all = rows
        all.append(.commit)
        while index < all.count {
            let count = min(batch, all.count - index)
            let statement = try connection.cachedStatement(insertSQL(rows: count))
            var parameter: Int32 = 1
            for offset in 0..<count {
                let row = all[index + offset]
                try statement.bind(firstID + Int64(index + offset), at: parameter)
                try statement.bind(time, at: parameter + 1)
                try statement.bind(firstID, at: parameter + 2)
                try statement.bind(row.type, at: parameter + 3)
                if let table = row.table { try statement.bind(table, at: parameter + 4) } else { try statement.bindNull(at: parameter + 4) }
                try statement.bind(row.id, at: parameter + 5)
                try bind(row.before, statement, parameter + 6)
                try bind(row.after, statement, parameter + 7)
                try bind(row.updates, statement, parameter + 8)
                parameter += 9
            }
            try statement.run()
            index += count
        }
        return commitID
    }

    /// The id the next row of the log gets.
    static func nextID(on connection: Connection) throws(SQLiteError) -> Int64 {
        let largest = try connection.fetchValue("SELECT max(change_id) FROM turso_cdc")
        let counter = try connection.fetchValue("SELECT seq FROM sqlite_sequence WHERE name = 'turso_cdc'")
        var next: Int64 = 0
        if case .integer(let value)? = largest { next = max(next, value) }
        if case .integer(let value)? = counter { next = max(next, value) }
        return next + 1
    }

    /// The current time in whole seconds since 1970, as `change_time` holds it.
    static func now() -> Int64 {
        Int64(Date().timeIntervalSince1970.rounded(.down))
    }

    private static func bind(_ bytes: [UInt8]?, _ statement: Statement, _ index: Int32) throws(SQLiteError) {
        guard let bytes else {
            try statement.bindNull(at: index)
            return
        }
        try statement.bind(bytes, at: index)
    }

    private static func insertSQL(rows: Int) -> String {
        let one = "(?, ?, ?, ?, ?, ?, ?, ?, ?)"
        return "INSERT INTO turso_cdc(change_id, change_time, change_txn_id, change_type, table_name, id, \"before\", \"after\", updates) VALUES "
            + Array(repeating: one, count: rows).joined(separator: ", ")
    }
}
