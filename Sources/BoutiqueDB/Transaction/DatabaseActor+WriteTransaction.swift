import BoutiqueSQLite

extension DatabaseActor {
    /// Runs `body` in a write transaction on the writer connection: the one place where write
    /// transactions begin, commit and roll back.
    ///
    /// ```swift
    /// try withWriteTransaction { connection in
    ///     try connection.execute("UPDATE note SET isPinned = 1")
    /// }
    /// ```
    ///
    /// `BEGIN IMMEDIATE` takes the write lock first, so the transaction never fails half-way with
    /// `SQLITE_BUSY` for want of a lock (another process holding it past the busy timeout makes the
    /// `BEGIN` fail with ``BoutiqueError/transactionInProgress`` instead). ``WriteTransactionObserver``s
    /// are told when it begins, may add statements just before it commits, and hear how it ended.
    /// It commits when `body` returns, unless the task was cancelled in the meantime; otherwise it rolls
    /// back and rethrows (``BoutiqueError/surfacing(_:writing:)`` maps the error).
    func withWriteTransaction<T>(origin: TransactionOrigin = .local, _ body: (Connection) throws -> T) throws -> T {
        let connection = try requireWriter()
        if Task.isCancelled { throw BoutiqueError.cancelled }
        for observer in observers.inCallingOrder { observer.willBegin(origin: origin) }
        do {
            try connection.beginTransaction(.immediate)
        } catch {
            throw BoutiqueError.surfacing(error, writing: true)
        }
        do {
            if options.multiProcess { try noticeExternalChanges(on: connection) }
            for observer in observers.inCallingOrder { try observer.didBegin(connection) }
            let result = try body(connection)
            if Task.isCancelled { throw BoutiqueError.cancelled }
            guard !connection.isAutocommit else {
                // The closure ran COMMIT or ROLLBACK itself: what it did is already final.
                throw BoutiqueError.invalidArgument(
                    "the write closure ended its transaction itself; use writeWithoutTransaction to manage transactions")
            }
            for observer in observers.inCallingOrder { try observer.willCommit(connection) }
            try connection.commit()
            for observer in observers.inCallingOrder { observer.didCommit(connection) }
            return result
        } catch {
            rollBack(connection)
            throw BoutiqueError.surfacing(error, writing: true)
        }
    }

    /// Rolls back whatever transaction is open on the writer and tells the observers.
    ///
    /// SQLite may already have rolled back by itself (after `SQLITE_FULL`, `SQLITE_IOERR`, an interrupted
    /// write); a second `ROLLBACK` is skipped then. A rollback that fails is tried once more so that the
    /// writer is never left inside a transaction, which would make every later write fail.
    private func rollBack(_ connection: Connection) {
        if !connection.isAutocommit { try? connection.rollback() }
        if !connection.isAutocommit { try? connection.execute("ROLLBACK") }
        for observer in observers.inCallingOrder { observer.didRollback(connection) }
    }

    /// Runs `body` on the writer outside any transaction, for statements that cannot run inside one
    /// (`VACUUM`, some `PRAGMA`s). A transaction the closure leaves open is rolled back and reported.
    func withoutWriteTransaction<T>(_ body: (Connection) throws -> T) throws -> T {
        let connection = try requireWriter()
        if Task.isCancelled { throw BoutiqueError.cancelled }
        for observer in observers.inCallingOrder { observer.willWriteOutsideTransaction(connection) }
        defer { for observer in observers.inCallingOrder { observer.didWriteOutsideTransaction(connection) } }
        let result: T
        do {
            result = try body(connection)
        } catch {
            if !connection.isAutocommit { rollBack(connection) }
            throw BoutiqueError.surfacing(error, writing: true)
        }
        guard connection.isAutocommit else {
            rollBack(connection)
            throw BoutiqueError.invalidArgument("writeWithoutTransaction left a transaction open; it was rolled back")
        }
        return result
    }
}
