import BoutiqueSQLite

extension ChangeCapture {
    /// Prunes the log to the retention option, every ``ChangeCaptureOptions/pruneInterval`` commits,
    /// inside the committing transaction.
    ///
    /// ```swift
    /// // options: .init(changeCapture: .init(retention: .transactions(1_000), pruneInterval: 100))
    /// ```
    func pruneIfDue(_ connection: Connection) throws {
        guard options.retention != .unlimited else { return }
        commitsSincePrune += 1
        guard commitsSincePrune >= options.pruneInterval else { return }
        commitsSincePrune = 0
        let horizon: DatabaseValue?
        switch options.retention {
        case .unlimited:
            return
        case .transactions(let count):
            horizon = try connection.fetchValue(
                "SELECT change_id FROM turso_cdc WHERE change_type = 2 ORDER BY change_id DESC LIMIT 1 OFFSET ?",
                [.integer(Int64(count))])
        case .age(let age):
            let cutoff = ChangeLogWriter.now() - age.components.seconds
            horizon = try connection.fetchValue(
                "SELECT change_id FROM turso_cdc WHERE change_type = 2 AND change_time < ? ORDER BY change_id DESC LIMIT 1",
                [.integer(cutoff)])
        }
        if case .integer(let changeID)? = horizon {
            try ChangeLogPruning.prune(through: changeID, on: connection)
        }
    }
}
