import BoutiqueQueries
import BoutiqueSQLite
import Foundation

/// Opens and configures the writer and reader connections of a database.
///
/// ```swift
/// let (writer, afterMigrations) = try ConnectionFactory.openWriter(at: location, options: options)
/// let reader = try ConnectionFactory.openReader(at: location, options: options)
/// ```
enum ConnectionFactory {
    /// Opens the writer connection, creating the file when it does not exist, with the statements its
    /// preparation left to run once the migrations have run.
    ///
    /// Nothing is written: the journal mode is set later by ``configureWriter(_:at:options:)``, after the
    /// migration history has been checked, so that a refused file is left exactly as it was.
    static func openWriter(
        at location: DatabaseLocation, options: DatabaseOptions
    ) throws(BoutiqueError) -> (connection: Connection, afterMigrations: [QueryFragment]) {
        let connection = try open(location, flags: [.readWrite, .create, .noMutex], options: options)
        let afterMigrations = try prepare(connection, isWriter: true, options: options)
        return (connection, afterMigrations)
    }

    /// Opens a reader connection on a database the writer has already created and configured.
    ///
    /// Readers are opened read-write (a WAL reader may need to create the shared-memory index) but with
    /// `PRAGMA query_only`, so a statement that would change the database fails with `.readOnly`.
    static func openReader(at location: DatabaseLocation, options: DatabaseOptions) throws(BoutiqueError) -> Connection {
        let connection = try open(location, flags: [.readWrite, .noMutex], options: options)
        try prepare(connection, isWriter: false, options: options)
        do {
            try connection.execute("PRAGMA query_only = ON")
        } catch {
            connection.close()
            throw BoutiqueError(error)
        }
        return connection
    }

    /// Runs the options' ``DatabaseOptions/prepareDatabase(_:)`` steps, closing the connection when one
    /// fails.
    @discardableResult
    private static func prepare(
        _ connection: Connection, isWriter: Bool, options: DatabaseOptions
    ) throws(BoutiqueError) -> [QueryFragment] {
        do {
            return try options.preparation.run(on: connection, isWriter: isWriter)
        } catch {
            connection.close()
            throw BoutiqueError.library(error, writing: false)
        }
    }

    /// Switches a file to WAL and sets durability; in-memory SQLite databases keep their own journal.
    ///
    /// Switching needs an exclusive lock for a moment. SQLite does not wait for it with the busy handler
    /// (waiting while holding a shared lock could deadlock with another connection doing the same), so
    /// two processes creating the same file at once would see `SQLITE_BUSY`; the switch is retried until
    /// the busy timeout runs out instead.
    static func configureWriter(_ connection: Connection, at location: DatabaseLocation, options: DatabaseOptions) throws(BoutiqueError) {
        do throws(SQLiteError) {
            if !location.isSQLiteMemory {
                let mode = try retryingWhileBusy(for: options.busyTimeout) { () throws(SQLiteError) in
                    try connection.setJournalMode(.wal)
                }
                guard mode == .wal else {
                    throw SQLiteError(.cannotOpen, message: "the database could not switch to WAL (journal mode is \(mode.rawValue)): \(location.path)")
                }
            }
            let synchronous: SynchronousMode =
                location.isTemporary ? .off : options.durability == .full ? .full : .normal
            try connection.setSynchronous(synchronous)
        } catch {
            throw BoutiqueError(writing: error)
        }
    }

    /// Opens `location`, retrying while another process holds a lock the open needs.
    ///
    /// `Connection` reads the schema to validate the file before a busy handler can be installed, so a
    /// process switching the same new file to WAL at that moment makes the open fail with `SQLITE_BUSY`.
    private static func open(_ location: DatabaseLocation, flags: OpenFlags, options: DatabaseOptions) throws(BoutiqueError) -> Connection {
        do throws(SQLiteError) {
            return try retryingWhileBusy(for: options.busyTimeout) { () throws(SQLiteError) in
                let connection = try Connection(path: location.path, flags: flags.union(location.extraFlags))
                do throws(SQLiteError) {
                    try connection.waitForLocks(upTo: options.busyTimeout)
                } catch {
                    connection.close()
                    throw error
                }
                return connection
            }
        } catch {
            throw BoutiqueError(writing: error)
        }
    }

    /// Runs `attempt` again while it fails with `SQLITE_BUSY`, for up to `timeout`, for the steps where
    /// SQLite returns `SQLITE_BUSY` without calling the busy handler.
    private static func retryingWhileBusy<T>(
        for timeout: Duration, _ attempt: () throws(SQLiteError) -> T
    ) throws(SQLiteError) -> T {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        var pause = 0.000_5
        while true {
            do {
                return try attempt()
            } catch where error.code == .busy && clock.now < deadline {
                Thread.sleep(forTimeInterval: pause)
                pause = min(pause * 2, 0.02)
            }
        }
    }
}
