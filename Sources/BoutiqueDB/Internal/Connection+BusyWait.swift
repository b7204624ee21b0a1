import BoutiqueSQLite
import Foundation

extension Connection {
    /// Waits for locks held by other connections up to `timeout`, retrying every fraction of a
    /// millisecond at first.
    ///
    /// ```swift
    /// try connection.waitForLocks(upTo: .seconds(5))
    /// ```
    ///
    /// SQLite's own busy timeout sleeps 1, 2, 5, 10 … 100 ms between tries. A process committing small
    /// transactions back to back releases the write lock for a few microseconds at a time, so a waiter
    /// on that schedule almost never catches it and can starve until the timeout. Retrying after
    /// 50 µs, growing to 2 ms, lets processes sharing a file take turns.
    func waitForLocks(upTo timeout: Duration) throws(SQLiteError) {
        let clock = ContinuousClock()
        let state = BusyWait()
        try setBusyHandler { attempt in
            let now = clock.now
            if attempt == 0 { state.startedAt = now }
            guard let startedAt = state.startedAt, now - startedAt < timeout else { return false }
            let pause = min(0.000_05 * Double(1 << min(attempt, 6)), 0.002)
            Thread.sleep(forTimeInterval: pause)
            return true
        }
    }
}

/// When the current wait for a lock began; used only by the connection's busy handler, on the
/// connection's thread.
private final class BusyWait {
    var startedAt: ContinuousClock.Instant?
}
