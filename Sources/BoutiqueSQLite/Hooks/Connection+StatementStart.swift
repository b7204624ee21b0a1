import CSQLite

/// Told when each statement on a connection takes its first step.
///
/// ```swift
/// final class Tracker: StatementStartObserver {
///     func statementStarted(_ statement: OpaquePointer, sql: UnsafePointer<CChar>) { ... }
/// }
/// try connection.setStatementStartObserver(tracker)
/// ```
///
/// SQLite's preupdate hook reports a row change before the statement making it has succeeded; a
/// statement that then fails is undone, and the hook hears nothing of it. Statement boundaries, with
/// ``StatementProbe``'s view of SQLite's change counter, tell which reported changes really happened.
public protocol StatementStartObserver: AnyObject {
    /// `statement` (the `sqlite3_stmt*`) is starting. `sql` is its text; a trigger program the statement
    /// fires is reported on the same statement as comments, `-- TRIGGER name` and then `-- ` and each of
    /// its statements. Both are valid during the call only. The observer must not use the connection.
    func statementStarted(_ statement: OpaquePointer, sql: UnsafePointer<CChar>)
}

/// The observer installed on a connection, kept alive while SQLite holds a pointer to it.
final class StatementStartBox {
    let observer: any StatementStartObserver
    init(_ observer: any StatementStartObserver) { self.observer = observer }
    var context: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }
}

extension Connection {
    /// Tells `observer` when each statement starts (`sqlite3_trace_v2` with `SQLITE_TRACE_STMT`); `nil`
    /// removes it. The connection keeps the observer until it is removed or the connection closes.
    public func setStatementStartObserver(_ observer: (any StatementStartObserver)?) throws(SQLiteError) {
        let db = try requireHandle()
        guard let observer else {
            sqlite3_trace_v2(db, 0, nil, nil)
            hooks.statementStart = nil
            return
        }
        let box = StatementStartBox(observer)
        let rc = sqlite3_trace_v2(db, UInt32(SQLITE_TRACE_STMT), { event, context, statement, detail in
            guard event == UInt32(SQLITE_TRACE_STMT), let context, let statement, let detail else { return 0 }
            Unmanaged<StatementStartBox>.fromOpaque(context).takeUnretainedValue().observer
                .statementStarted(OpaquePointer(statement), sql: detail.assumingMemoryBound(to: CChar.self))
            return 0
        }, box.context)
        guard rc == SQLITE_OK else { throw SQLiteError(db: db, rc: rc, sql: nil) }
        hooks.statementStart = box
    }
}

/// Questions about a connection's statements, asked by their raw handles and cheap enough to ask for
/// every statement: for a ``StatementStartObserver``, which sees statements only as handles.
///
/// ```swift
/// let probe = try StatementProbe(connection)
/// let before = probe.totalChanges
/// // … the statement runs …
/// let undone = probe.totalChanges == before && !probe.isRunning(statement)
/// ```
///
/// It holds the connection's `sqlite3*` without keeping the connection: use it only while the
/// connection is open, on the connection's thread.
public struct StatementProbe {
    private let db: OpaquePointer

    /// A probe of `connection`, which must be open.
    public init(_ connection: Connection) throws(SQLiteError) {
        db = try connection.requireHandle()
    }

    /// Rows changed by statements that completed (`sqlite3_total_changes64`). A statement that fails
    /// and is undone adds nothing, though the preupdate hook saw its rows.
    public var totalChanges: Int64 { sqlite3_total_changes64(db) }

    /// Rows the last finished statement changed (`sqlite3_changes64`): after a failed statement, 0 when
    /// SQLite undid it, its rows before the failure when its conflict clause (`FAIL`) kept them.
    public var lastStatementChanges: Int64 { sqlite3_changes64(db) }

    /// Whether `statement` is still a prepared statement of the connection (not finalized), found in
    /// SQLite's list of them without touching the statement itself.
    public func isPrepared(_ statement: OpaquePointer) -> Bool {
        var cursor = sqlite3_next_stmt(db, nil)
        while let current = cursor {
            if current == statement { return true }
            cursor = sqlite3_next_stmt(db, current)
        }
        return false
    }

    /// Whether `statement`, a prepared statement of the connection, is between its first step and its
    /// end (a `RETURNING` statement whose rows were not all read is, until it is reset).
    public func isRunning(_ statement: OpaquePointer) -> Bool {
        sqlite3_stmt_busy(statement) != 0
    }

    /// How far `statement`, a prepared statement of the connection, has got: see ``StatementProgress``.
    public func progress(of statement: OpaquePointer) -> StatementProgress {
        StatementProgress(
            programStarts: sqlite3_stmt_status(statement, SQLITE_STMTSTATUS_RUN, 0),
            stepsReturned: sqlite3_stmt_status(statement, SQLITE_STMTSTATUS_VM_STEP, 0),
            reprepares: sqlite3_stmt_status(statement, SQLITE_STMTSTATUS_REPREPARE, 0))
    }

    /// The SQL text `statement`, a prepared statement of the connection, was prepared from.
    public func sql(of statement: OpaquePointer) -> String? {
        sqlite3_sql(statement).map { String(cString: $0) }
    }
}

/// Two of a statement's counters, read when a start is traced, that tell a new run of the statement from
/// a program its running step starts.
///
/// SQLite runs a foreign-key action (`ON DELETE CASCADE`, `SET NULL`, …) as a program of its own, and
/// traces its start as a start of the statement that fired it, with the same pointer and SQL (a trigger's
/// program is traced with a `-- TRIGGER` comment instead). A new run differs in two ways: a step has
/// returned since the last traced start (SQLite adds a step's virtual-machine operations to the
/// statement's count when the step returns, so a program started inside the same step sees the count
/// unchanged), and a statement newly prepared at a finalized one's address has started no program yet.
/// One exception: a step that finds the schema changed (another connection's `ALTER`, a `VACUUM INTO`)
/// prepares the statement again and runs it once more without tracing it; its first attempt's
/// operations are counted by then, so a program started in the second one is told by the re-prepare.
public struct StatementProgress: Equatable, Sendable {
    /// Programs the statement has started (`SQLITE_STMTSTATUS_RUN`, counted just after each traced start).
    public var programStarts: Int32
    /// Virtual-machine operations of the steps that have returned (`SQLITE_STMTSTATUS_VM_STEP`).
    public var stepsReturned: Int32
    /// Times SQLite prepared the statement again for a changed schema (`SQLITE_STMTSTATUS_REPREPARE`).
    public var reprepares: Int32

    /// Counters as given.
    public init(programStarts: Int32, stepsReturned: Int32, reprepares: Int32 = 0) {
        self.programStarts = programStarts
        self.stepsReturned = stepsReturned
        self.reprepares = reprepares
    }

    /// Whether a start traced with `self` is a program started by the run traced with `start`, not a new
    /// run of the statement.
    public func isInsideRun(tracedAt start: StatementProgress) -> Bool {
        programStarts > start.programStarts && (stepsReturned == start.stepsReturned || reprepares > start.reprepares)
    }
}
