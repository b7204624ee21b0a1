extension DatabaseActor {
    /// Every later commit to the file, as it happens: this process's own, right after each commit,
    /// and other processes' (with ``DatabaseOptions/multiProcess``) when the monitor sees them. Ends
    /// when the database closes or the reading task is cancelled.
    ///
    /// ```swift
    /// for await commit in database.commitSignals() where !commit.isRemote && commit.mayHaveChanged(anyOf: ["note"]) {
    ///     print("note changed at", commit.token as Any)
    /// }
    /// ```
    ///
    /// Signals wait in the sequence until read, so a slow reader misses none; to learn what changed,
    /// read the change feed from the token.
    public nonisolated func commitSignals() -> AsyncStream<CommitSignal> {
        let (stream, continuation) = AsyncStream.makeStream(of: CommitSignal.self, bufferingPolicy: .unbounded)
        let notifier = changeCenter.notifier
        let id = notifier.subscribe { notice in
            if notice.isClose {
                continuation.finish()
                return
            }
            continuation.yield(CommitSignal(
                token: notice.token, tables: notice.tables.map { Set($0.map { $0.lowercased() }) },
                isRemote: notice.isRemote, isExternal: notice.isExternal))
        }
        continuation.onTermination = { _ in notifier.unsubscribe(id) }
        return stream
    }
}
