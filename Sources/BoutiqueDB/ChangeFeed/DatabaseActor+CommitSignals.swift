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
        let id = observeCommits { signal in
            if let signal { continuation.yield(signal) } else { continuation.finish() }
        }
        continuation.onTermination = { _ in notifier.unsubscribe(id) }
        return stream
    }

    /// Calls `handler` for every later commit on the thread that announces it: for this process's own
    /// commits, the writer's, right after `COMMIT` and before the write that made it returns; for other
    /// processes' (with ``DatabaseOptions/multiProcess``), the monitor's. `nil` says the database closed.
    ///
    /// ```swift
    /// let id = database.observeCommits { commit in if let commit, !commit.isRemote { tally.add(commit) } }
    /// database.stopObservingCommits(id)
    /// ```
    ///
    /// For what must be true when a write returns (a count the app reads right after it); the handler
    /// runs inside the write's time, so it only records and schedules.
    package nonisolated func observeCommits(_ handler: @escaping @Sendable (CommitSignal?) -> Void) -> UInt64 {
        changeCenter.notifier.subscribe { notice in
            if notice.isClose {
                handler(nil)
                return
            }
            handler(CommitSignal(
                token: notice.token, tables: notice.tables.map { Set($0.map { $0.lowercased() }) },
                isRemote: notice.isRemote, isExternal: notice.isExternal))
        }
    }

    /// Stops calling the handler ``observeCommits(_:)`` returned `id` for.
    package nonisolated func stopObservingCommits(_ id: UInt64) {
        changeCenter.notifier.unsubscribe(id)
    }
}
