extension BoutiqueSync {
    /// The local changes sync discarded while merging, as they happen (see ``SyncLoss``).
    ///
    /// Losses found while nobody reads are kept (up to a thousand) and go to the first reader, so an
    /// app that starts reading after sync started misses none. Each reader gets every loss.
    ///
    /// ```swift
    /// Task {
    ///     for await loss in sync.losses {
    ///         log.warning("\(loss.kind) on \(loss.table) \(loss.key): \(loss.values)")
    ///     }
    /// }
    /// ```
    public var losses: AsyncStream<SyncLoss> { session.losses.stream() }

    /// The rows that left what this user sees because someone else moved them to a space the user is
    /// not in, as the device takes them off (see ``SyncDeparture``).
    ///
    /// Kept like ``losses`` while nobody reads (up to a thousand), for the first reader.
    ///
    /// ```swift
    /// Task {
    ///     for await departure in sync.departures {
    ///         log.info("\(departure.table) \(departure.key) was moved away")
    ///     }
    /// }
    /// ```
    public var departures: AsyncStream<SyncDeparture> { session.departures.stream() }
}

extension BoutiqueSync {
    /// What sync reported that no reader took yet (losses, departures, refusals), taken at once: for a
    /// tool that syncs once and prints what happened. Later reports go to readers as usual.
    package func takeUnreadReports() async -> (losses: [SyncLoss], departures: [SyncDeparture], refusals: [SyncRefusal]) {
        (await Self.drain(session.losses), await Self.drain(session.departures), await Self.drain(session.refusals))
    }

    /// The events `channel` kept, ending the one sequence made to take them.
    private static func drain<Element: Sendable>(_ channel: SyncEventChannel<Element>) async -> [Element] {
        let stream = channel.stream()
        channel.finish()
        var taken: [Element] = []
        for await element in stream { taken.append(element) }
        return taken
    }
}
