import BoutiqueSQLite
import Foundation

/// Appends a transaction's rows to `turso_cdc`, inside that transaction.
///
/// ```swift
/// let token = try ChangeLogWriter.append(batch, firstID: try ChangeLogWriter.nextID(on: writer),
///                                        time: ChangeLogWriter.now(), on: writer)   // the COMMIT row's id
/// ```
///
/// The transaction id (the first row's id) must be in every row, so it is computed before the first
/// row is written: AUTOINCREMENT gives the next row the larger of its counter and the largest id
/// present, plus one, and the rows of one statement consecutive ids after it (the write lock is held,
/// so nobody else inserts). The ids are left to SQLite, which appends fastest that way, and checked
/// once at the end. Rows go 64 to a statement, records bound in place from the batch's buffer, and the
/// COMMIT row goes with the last of them: a one-row transaction's log is one statement (one
/// `sqlite_sequence` update), not two.
enum ChangeLogWriter {
    private static let rowsPerStatement = 64

    /// Writes `batch` and a COMMIT row, returning the COMMIT row's `change_id`.
    static func append(_ batch: ChangeLogBatch, firstID: Int64, time: Int64, on connection: Connection) throws -> Int64 {
        let commitID = firstID + Int64(batch.count)
        try batch.bytes.withUnsafeBytes { bytes in
            var index = 0
            repeat {
                let count = min(rowsPerStatement, batch.rows.count - index)
                let isLast = index + count == batch.rows.count
                let statement = try connection.cachedStatement(isLast ? lastInsertSQL[count] : fullInsertSQL)
                try statement.bind(time, at: 1)
                try statement.bind(firstID, at: 2)
                var parameter: Int32 = 3
                for row in batch.rows[index..<index + count] {
                    try statement.bind(row.type, at: parameter)
                    try statement.bindTextNoCopy(
                        UnsafeBufferPointer(rebasing: bytes.assumingMemoryBound(to: UInt8.self)[row.table]), at: parameter + 1)
                    if row.keyIndex < 0 {
                        try statement.bind(row.rowID, at: parameter + 2)
                    } else {
                        try statement.bind(batch.id(of: row), at: parameter + 2)
                    }
                    try bind(row.before, of: bytes, to: statement, at: parameter + 3)
                    try bind(row.after, of: bytes, to: statement, at: parameter + 4)
                    try bind(row.updates, of: bytes, to: statement, at: parameter + 5)
                    parameter += 6
                }
                try statement.run()
                // Nothing may keep pointing into the buffer once this closure returns.
                try statement.clearBindings()
                index += count
            } while index < batch.rows.count
        }
        guard connection.lastInsertRowID == commitID else {
            throw BoutiqueError.invalidArgument(
                "turso_cdc numbered the transaction's COMMIT row \(connection.lastInsertRowID), not \(commitID)")
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

    private static func bind(
        _ range: Range<Int>?, of bytes: UnsafeRawBufferPointer, to statement: Statement, at index: Int32
    ) throws(SQLiteError) {
        guard let range else {
            try statement.bindNull(at: index)
            return
        }
        try statement.bindNoCopy(UnsafeRawBufferPointer(rebasing: bytes[range]), at: index)
    }

    /// The statement for a full batch that is not the last, built once.
    private static let fullInsertSQL = insertSQL(rows: rowsPerStatement, withCommit: false)

    /// A transaction's last statement, its last data rows (0 to 64) and the COMMIT row, for each
    /// number of data rows, built once.
    private static let lastInsertSQL = (0...rowsPerStatement).map { insertSQL(rows: $0, withCommit: true) }

    private static func insertSQL(rows: Int, withCommit: Bool) -> String {
        let one = "(?1, ?2, ?, ?, ?, ?, ?, ?)"
        let values = Array(repeating: one, count: rows) + (withCommit ? ["(?1, ?2, 2, NULL, NULL, NULL, NULL, NULL)"] : [])
        return "INSERT INTO turso_cdc(change_time, change_txn_id, change_type, table_name, id, \"before\", \"after\", updates) VALUES "
            + values.joined(separator: ", ")
    }
}
