import BoutiqueSQLite

/// Something that takes part in every write transaction of a ``DatabaseActor``: the extension point for
/// change capture.
///
/// The actor calls it on the writer connection, inside its isolation, for every transaction that
/// `write`, migrations and anything else run through ``DatabaseActor/withWriteTransaction(_:)``:
///
/// ```swift
/// final class ChangeCapture: WriteTransactionObserver {
///     func willCommit(_ connection: Connection) throws {
///         // Runs inside the transaction: rows written here commit or roll back with the user's changes.
///         try connection.execute("INSERT INTO turso_cdc(change_type, change_time) VALUES (2, unixepoch())")
///     }
///     func didCommit(_ connection: Connection) { /* the new change token is final */ }
/// }
/// database.observers.capture = ChangeCapture()
/// ```
///
/// Observers run in the order ``TransactionObservers`` states. Keep them fast: they run while the write lock is held.
protocol WriteTransactionObserver: AnyObject {
    /// Another connection (another process) committed to the file since the database last looked.
    ///
    /// Called inside a write transaction right after it begins (with ``DatabaseOptions/multiProcess``), or
    /// outside any transaction from ``DatabaseActor/checkForExternalChanges()``. Cached knowledge of the
    /// file, such as the latest change token, is stale.
    func didDetectExternalChanges(_ connection: Connection)

    /// A write transaction of `origin` is about to begin: whether it is the app's own (`.local`) or
    /// applies another replica's changes (`.remote`), which is a property of the whole transaction.
    func willBegin(origin: TransactionOrigin)

    /// The transaction has begun (`BEGIN IMMEDIATE` succeeded); nothing has been changed yet.
    /// Throwing rolls the transaction back and fails the write with the error.
    func didBegin(_ connection: Connection) throws

    /// The closure returned and the transaction is about to commit. Statements run here are part of the
    /// transaction. Throwing rolls everything back and fails the write with the error.
    func willCommit(_ connection: Connection) throws

    /// The transaction committed.
    func didCommit(_ connection: Connection)

    /// The transaction rolled back (the closure threw, the task was cancelled, or the commit failed).
    func didRollback(_ connection: Connection)

    /// `writeWithoutTransaction` is about to run its closure, outside any transaction.
    func willWriteOutsideTransaction(_ connection: Connection)

    /// `writeWithoutTransaction` ran: its statements committed one by one, with no transaction to join.
    func didWriteOutsideTransaction(_ connection: Connection)
}

extension WriteTransactionObserver {
    func didDetectExternalChanges(_ connection: Connection) {}
    func willBegin(origin: TransactionOrigin) {}
    func didBegin(_ connection: Connection) throws {}
    func willCommit(_ connection: Connection) throws {}
    func didCommit(_ connection: Connection) {}
    func didRollback(_ connection: Connection) {}
    func willWriteOutsideTransaction(_ connection: Connection) {}
    func didWriteOutsideTransaction(_ connection: Connection) {}
}
