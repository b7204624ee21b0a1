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
        let stop = observeCommits({ continuation.yield($0) }, onClose: { continuation.finish() })
        continuation.onTermination = { _ in stop() }
        return stream
    }

    /// Calls `handler` with every later commit, on the thread that announces it (the writer's, right
    /// after `COMMIT`, or the multi-process monitor's), and `onClose` once the database closes; the
    /// returned closure stops both.
    ///
    /// ```swift
    /// let stop = database.observeCommits({ commit in if !commit.isRemote { requests.yield() } }, onClose: { requests.finish() })
    /// ```
    ///
    /// For a follower that only decides whether to schedule work: unlike reading ``commitSignals()``,
    /// which wakes the reading task at every commit (a thread woken under the writer's feet), a handler
    /// that yields into a stream which coalesces (`.bufferingNewest(1)`) wakes its reader once for a
    /// burst of commits. For this process's own commits the handler runs before the write that made
    /// them returns, so what it records holds when the write's caller reads it (a pending count read
    /// right after the write). The handler must be quick, must not block, and must not use the database.
    package nonisolated func observeCommits(
        _ handler: @escaping @Sendable (CommitSignal) -> Void, onClose: @escaping @Sendable () -> Void
    ) -> @Sendable () -> Void {
        let notifier = changeCenter.notifier
        let id = notifier.subscribe { notice in
            if notice.isClose {
                onClose()
                return
            }
            handler(CommitSignal(
                token: notice.token, tables: notice.tables.map { Set($0.map { $0.lowercased() }) },
                isRemote: notice.isRemote, isExternal: notice.isExternal))
        }
        return { notifier.unsubscribe(id) }
    }
}
