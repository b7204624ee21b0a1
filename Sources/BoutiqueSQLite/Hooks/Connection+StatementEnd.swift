import CSQLite

/// Told when a statement run through the connection's API ends: its last step returned `SQLITE_DONE` or
/// an error, or it was reset or finalized while running (rows of a `RETURNING` left unread), which
/// ends it with its changes kept.
///
/// ```swift
/// final class Watcher: StatementEndObserver {
///     func statementEnded(_ statement: OpaquePointer, succeeded: Bool) { ... }
/// }
/// connection.reportStatementEnds(to: watcher)   // until `reportStatementEnds(to: nil)`
/// ```
///
/// SQLite has no cheap way to tell of a statement's end (`SQLITE_TRACE_PROFILE` reads the clock twice
/// per statement), so the connection's own stepping reports it — ``Statement/step()``,
/// ``Statement/run()``, ``Statement/reset()``, ``Statement/finalize()`` and ``Connection/execute(_:)``:
/// a statement stepped through a raw handle is not reported. The cost while no observer is set is one
/// check per statement end. The observer may use the connection (the statement is at its end, not yet
/// reset, and its error already read); the ends of its own statements are not reported to it.
public protocol StatementEndObserver: AnyObject {
    /// `statement` (the `sqlite3_stmt*`) ended; `succeeded` is `false` when its last step failed.
    func statementEnded(_ statement: OpaquePointer, succeeded: Bool)
}

extension Connection {
    /// Reports the end of every statement to `observer` until it is replaced or `nil`. The connection
    /// keeps the observer meanwhile.
    public func reportStatementEnds(to observer: (any StatementEndObserver)?) {
        liveStatements.endObserver = observer
    }

    /// Whether statement ends are being reported.
    public var reportsStatementEnds: Bool { liveStatements.endObserver != nil }
}

extension StatementRegistry {
    /// Tells the end observer that `statement` ended with result code `rc`. Ends of the statements the
    /// observer itself runs meanwhile are not reported to it.
    @usableFromInline
    func reportEnd(of statement: OpaquePointer?, rc: Int32) {
        guard let observer = endObserver, let statement, !isReportingEnd else { return }
        isReportingEnd = true
        defer { isReportingEnd = false }
        observer.statementEnded(statement, succeeded: rc == SQLITE_DONE)
    }
}
