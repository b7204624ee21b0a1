/// A server's chores on a schedule: every tenant's garbage collected (tombstones and log entries
/// every device seen within the retention period has pulled past), and memory the process freed
/// handed back to the system.
///
/// ```swift
/// let housekeeping = SyncHousekeeping(server: server, retention: .seconds(30 * 86_400)) { event in
///     print("housekeeping: \(event)")
/// }
/// await housekeeping.start()
/// // … serve …
/// await housekeeping.stop()
/// ```
///
/// Without it a server keeps every tombstone and log entry for ever. A round runs ten minutes after
/// ``start()`` (`firstRoundAfter`: a server restarted in a loop still collects, one just started
/// has time to settle) and then every `interval`; ``collectNow()`` runs one at once. Each
/// round asks the store for its tenants (``SyncStore/tenants()``) and runs
/// ``SyncServer/collectGarbage(tenant:inactiveAfterMilliseconds:)`` for each, one after another, so a
/// round holds one tenant's lock at a time. A device not seen for longer than `retention` no longer
/// holds garbage back: when it comes back behind the log's horizon its pull is answered
/// `resetRequired` (HTTP 410) and it bootstraps again from a snapshot, as after any collection.
///
/// Between rounds, every `memoryCheckInterval`, freed memory the C allocator keeps in its arenas
/// beyond a few megabytes (after a spike of large pushes or pulls) is returned to the system (glibc's
/// `malloc_trim`; nothing elsewhere), so a server at rest shrinks back towards its idle size. A release
/// is logged only when it gave back a megabyte or more, and at most once a minute: a busy server
/// releases often, and an idle one should not fill its log.
public actor SyncHousekeeping {
    /// Something a round did or could not do, for the log.
    public enum Event: Sendable, Hashable, CustomStringConvertible {
        /// A tenant's log was pruned through `report.horizon` (it started after `previousHorizon`),
        /// `report.tombstonesRemoved` tombstones were dropped and `report.textsCompacted` collaborative
        /// texts compacted.
        case collected(tenant: String, previousHorizon: Int64, report: SyncServer.GarbageReport)
        /// `count` attachments of the tenant no row had pointed at for the retention period were
        /// removed, `bytes` in all.
        case collectedAttachments(tenant: String, count: Int, bytes: Int64)
        /// A round could not list the tenants (`tenant` is `nil`) or collect one tenant's garbage; the
        /// next round tries again.
        case failed(tenant: String?, reason: String)
        /// Freed memory handed back to the system: the process's resident bytes before and after.
        case releasedMemory(residentBytesBefore: Int, residentBytesAfter: Int)

        /// One line for a log.
        public var description: String {
            switch self {
            case let .collected(tenant, previous, report):
                "tenant '\(tenant)': log entries \(previous + 1)…\(report.horizon) and \(report.tombstonesRemoved) tombstone(s) removed"
                    + (report.textsCompacted > 0 ? ", \(report.textsCompacted) collaborative text(s) compacted" : "")
            case let .collectedAttachments(tenant, count, bytes):
                "tenant '\(tenant)': \(count) attachment(s) no row pointed at removed, \(bytes) bytes"
            case let .failed(tenant?, reason): "tenant '\(tenant)': garbage collection failed: \(reason)"
            case let .failed(nil, reason): "cannot list the tenants: \(reason)"
            case let .releasedMemory(before, after):
                "returned freed memory to the system: \(before / 1_048_576) MB resident before, \(after / 1_048_576) MB after"
            }
        }
    }

    /// The server whose tenants are collected.
    public nonisolated let server: SyncServer
    /// Where the server keeps attachments' bytes: those no row has pointed at for ``retention`` are
    /// removed each round; `nil` for a server that keeps none.
    public nonisolated let attachments: (any SyncAttachmentStore)?
    /// How long a device may stay away and still resume from its cursor.
    public nonisolated let retention: Duration
    /// The time between rounds.
    public nonisolated let interval: Duration
    /// The time from ``start()`` to the first round.
    public nonisolated let firstRoundAfter: Duration
    /// How often freed memory is looked for.
    public nonisolated let memoryCheckInterval: Duration
    private nonisolated let log: @Sendable (Event) -> Void
    private var schedule: Task<Void, Never>?
    private var memory = MemoryRelease()
    private var memoryReports = ReportInterval(minimum: .seconds(60))

    /// The default retention: 30 days.
    public static let defaultRetention: Duration = .seconds(30 * 86_400)

    /// - Parameters:
    ///   - server: The server whose tenants are collected.
    ///   - retention: How long a device may stay away and still resume from its cursor (at least a
    ///     millisecond); a device away longer bootstraps again when it returns.
    ///   - interval: The time between rounds.
    ///   - firstRoundAfter: The time from ``start()`` to the first round.
    ///   - memoryCheckInterval: How often freed memory is looked for and handed back.
    ///   - attachments: Where the server keeps attachments' bytes, collected with the rest.
    ///   - log: Called with what each round removed (tenants with nothing to remove are not reported),
    ///     what failed, and memory handed back.
    public init(
        server: SyncServer, retention: Duration = SyncHousekeeping.defaultRetention, interval: Duration = .seconds(3_600),
        firstRoundAfter: Duration = .seconds(600), memoryCheckInterval: Duration = .seconds(10),
        attachments: (any SyncAttachmentStore)? = nil, log: @escaping @Sendable (Event) -> Void = { _ in }
    ) {
        self.server = server
        self.attachments = attachments
        self.retention = retention
        self.interval = interval
        self.firstRoundAfter = firstRoundAfter
        self.memoryCheckInterval = memoryCheckInterval
        self.log = log
    }

    /// Starts the schedule (again after ``stop()``); does nothing while it runs.
    ///
    /// On Linux it also tells the C allocator to hand blocks of 128 KiB and more back to the system
    /// as soon as they are freed (`mallopt(M_MMAP_THRESHOLD)`, for the whole process, unless it was
    /// started with a threshold of its own), so that a spike of large requests leaves no fragments
    /// behind.
    public func start() {
        guard schedule == nil else { return }
        MemoryRelease.fixMapThreshold
        let firstRound = ContinuousClock.now + firstRoundAfter
        schedule = Task { [weak self] in
            var nextRound = firstRound
            while !Task.isCancelled, let self {
                if ContinuousClock.now >= nextRound {
                    await self.collectNow()
                    nextRound = ContinuousClock.now + self.interval
                }
                await self.releaseMemory()
                let wake = min(nextRound, ContinuousClock.now + self.memoryCheckInterval)
                try? await Task.sleep(until: wake, clock: .continuous)
            }
        }
    }

    /// Stops the schedule; a round in progress finishes the tenant it is on.
    public func stop() {
        schedule?.cancel()
        schedule = nil
    }

    /// Hands freed memory back when there is enough of it (see ``MemoryRelease``), the store's caches
    /// with it.
    private func releaseMemory() async {
        let store = server.store
        // A copy across the suspension: an actor's stored property cannot be changed in place by an
        // async call. The schedule makes one check at a time, so nothing else changes it meanwhile.
        var memory = self.memory
        defer { self.memory = memory }
        guard let released = await memory.releaseIfWorthIt(freeingCachesWith: { await store.releaseMemory() }) else { return }
        guard memoryReports.allows(at: ContinuousClock.now) else { return }
        log(.releasedMemory(residentBytesBefore: released.before, residentBytesAfter: released.after))
    }

    /// Runs one round now: every tenant's garbage collected, one after another.
    ///
    /// ```swift
    /// let events = await housekeeping.collectNow()
    /// ```
    ///
    /// - Returns: What was logged: the tenants whose garbage was removed, and failures.
    @discardableResult
    public func collectNow() async -> [Event] {
        var events: [Event] = []
        let tenants: [String]
        do {
            tenants = try await server.store.tenants()
        } catch {
            events.append(.failed(tenant: nil, reason: "\(error)"))
            events.forEach(log)
            return events
        }
        let inactiveAfter = Self.milliseconds(retention)
        for tenant in tenants {
            do {
                let previous = try await server.store.transaction(tenant: tenant) { store in try store.logHorizon() }
                let report = try await server.collectGarbage(tenant: tenant, inactiveAfterMilliseconds: inactiveAfter)
                if let attachments {
                    let collected = try await server.collectAttachments(tenant: tenant, in: attachments, retentionMilliseconds: inactiveAfter)
                    if collected.attachments > 0 {
                        let event = Event.collectedAttachments(tenant: tenant, count: collected.attachments, bytes: collected.bytes)
                        events.append(event)
                        log(event)
                    }
                }
                guard report.horizon > previous || report.tombstonesRemoved > 0 else { continue }
                let event = Event.collected(tenant: tenant, previousHorizon: previous, report: report)
                events.append(event)
                log(event)
            } catch {
                let event = Event.failed(tenant: tenant, reason: "\(error)")
                events.append(event)
                log(event)
            }
        }
        return events
    }

    /// `duration` in whole milliseconds, at least 1 (0 would count every device as gone).
    static func milliseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 1 }
        let (total, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000)
        guard !overflow else { return .max }
        return max(1, total + UInt64(attoseconds / 1_000_000_000_000_000))
    }
}
