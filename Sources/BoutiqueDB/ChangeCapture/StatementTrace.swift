import BoutiqueSQLite
import CSQLite

/// Tells a ``ChangeCapture`` when each top-level statement on the writer starts
/// (`sqlite3_trace_v2` with `SQLITE_TRACE_STMT`).
///
/// ```swift
/// let trace = StatementTrace(connection: writer, receiver: capture)
/// // capture.statementStarted(_:text:) now runs when every statement starts
/// ```
///
/// Why change capture needs it: the preupdate hook reports a row change *before* the statement that
/// makes it has succeeded. A statement that then fails (a constraint checked after the row was written,
/// the second row of a multi-row `INSERT`) is undone by SQLite, and so is everything after a
/// `ROLLBACK TO` a savepoint; the hook hears nothing of either. Statement boundaries, their text and
/// SQLite's change counter are what tell which captured changes really happened.
///
/// With ``PreupdateRecord`` it is where change capture calls the C API directly: the connection layer
/// wraps no trace hook yet. It touches only the writer connection, on the writer's thread.
final class StatementTrace {
    private weak var connection: Connection?

    /// Installs the trace. `receiver` must remove it (by releasing this object) before it goes away:
    /// SQLite holds the receiver unretained, because a weak reference would put every retain of the
    /// capture on Swift's slow path, on every statement.
    init(connection: Connection, receiver: ChangeCapture) throws(SQLiteError) {
        let db = try connection.requireHandle()
        self.connection = connection
        let mask = UInt32(SQLITE_TRACE_STMT)
        let rc = sqlite3_trace_v2(db, mask, { event, context, statement, detail in
            guard let context, let statement else { return 0 }
            let receiver = Unmanaged<ChangeCapture>.fromOpaque(context).takeUnretainedValue()
            let stmt = OpaquePointer(statement)
            if event == UInt32(SQLITE_TRACE_STMT), let detail {
                receiver.statementStarted(stmt, text: detail.assumingMemoryBound(to: CChar.self))
            }
            return 0
        }, Unmanaged.passUnretained(receiver).toOpaque())
        guard rc == SQLITE_OK else {
            throw SQLiteError(.error, message: "could not install the statement trace (\(rc))")
        }
    }

    deinit {
        // A connection that already closed has dropped its trace with its handle.
        if let db = connection?.handle { sqlite3_trace_v2(db, 0, nil, nil) }
    }

    /// Whether `statement` is between its first step and its end (a `RETURNING` statement whose rows
    /// were not all read is, until it is reset).
    static func isRunning(_ statement: OpaquePointer) -> Bool {
        sqlite3_stmt_busy(statement) != 0
    }

    /// Whether `statement` is still a prepared statement of the connection `db` (not finalized), found
    /// in SQLite's list of them without touching the statement itself.
    static func isLive(_ statement: OpaquePointer, on db: OpaquePointer) -> Bool {
        var cursor = sqlite3_next_stmt(db, nil)
        while let current = cursor {
            if current == statement { return true }
            cursor = sqlite3_next_stmt(db, current)
        }
        return false
    }

    /// The SQL text `statement` was prepared from.
    static func text(of statement: OpaquePointer) -> String? {
        sqlite3_sql(statement).map { String(cString: $0) }
    }

    /// The connection's count of rows changed by statements that completed (`sqlite3_total_changes64`).
    ///
    /// A statement that fails and is undone adds nothing to it, though the preupdate hook saw its rows.
    /// Takes the raw handle: it is read twice per statement, and going through the `Connection` object
    /// would cost more than the read.
    static func totalChanges(_ db: OpaquePointer) -> Int64 {
        sqlite3_total_changes64(db)
    }
}
