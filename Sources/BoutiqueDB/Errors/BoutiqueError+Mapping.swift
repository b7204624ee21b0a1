import BoutiqueSQLite

extension BoutiqueError {
    /// The error a write reports for a SQLite failure: a lock held past the busy timeout is a write
    /// conflict (``transactionInProgress``), everything else is ``sql(code:message:)``.
    ///
    /// ```swift
    /// catch let error as SQLiteError { throw BoutiqueError(writing: error) }
    /// ```
    init(writing error: SQLiteError) {
        if error.code == .busy {
            self = .transactionInProgress
        } else {
            self.init(error)
        }
    }

    /// The error a `read` or `write` closure's failure surfaces as.
    ///
    /// Library failures become a ``BoutiqueError``: SQLite errors are wrapped, and an interrupted
    /// statement or a `CancellationError` in a cancelled task is ``cancelled``. Errors of the caller's
    /// own types pass through unchanged, so a closure can throw its domain errors past the transaction.
    static func surfacing(_ error: any Error, writing: Bool) -> any Error {
        let mapped: any Error
        switch error {
        case let error as SQLiteError: mapped = writing ? BoutiqueError(writing: error) : BoutiqueError(error)
        case is CancellationError: mapped = BoutiqueError.cancelled
        default: mapped = error
        }
        if let boutique = mapped as? BoutiqueError, boutique.isInterruption, Task.isCancelled {
            return BoutiqueError.cancelled
        }
        if writing, let boutique = mapped as? BoutiqueError, boutique.resultCode?.primary == .busy {
            return BoutiqueError.transactionInProgress
        }
        return mapped
    }

    /// The typed form of ``surfacing(_:writing:)`` for paths that run no user code.
    static func library(_ error: any Error, writing: Bool) -> BoutiqueError {
        switch surfacing(error, writing: writing) {
        case let error as BoutiqueError: error
        case let other: .invalidArgument(String(describing: other))
        }
    }

    /// `true` for a statement stopped by `sqlite3_interrupt`, which is how cancellation reaches SQLite.
    var isInterruption: Bool { resultCode?.primary == .interrupt }
}
