import Foundation

/// The sync server's logic: applies pushes by the merge rule, serves pulls and snapshots, over a
/// ``SyncStore``.
///
/// ```swift
/// let server = SyncServer(store: try await SQLiteSyncStore.open(url: BoutiqueDB.inMemoryURL()))
/// let sync = try await BoutiqueSync(database: db, tables: [Note.self], server: .inProcess(server))
/// ```
///
/// Every push runs as one store transaction: its changes, the replica's watermark and its digest
/// commit together, so a retried push changes nothing. Pulls and snapshots only read
/// (``SyncStore/read(tenant:_:)``), so they need not wait for writes. The server refuses stamps further ahead
/// of its own time than ``maximumClockSkewMilliseconds`` and puts its time in every reply, so one
/// device's wrong clock cannot win for ever.
public actor SyncServer: SyncEndpoint {
    /// The replica id of changes the server itself makes (a resolver's).
    public static let serverReplica = "~server"

    /// Where the data lives.
    public nonisolated let store: any SyncStore
    /// How far ahead of the server's clock a pushed stamp may be.
    public nonisolated let maximumClockSkewMilliseconds: UInt64
    /// Pushes from app versions whose schema version is lower are refused.
    public nonisolated let minimumSchemaVersion: Int
    /// How large pushed values, rows, names and answers' pages may be.
    public nonisolated let limits: SyncServerLimits
    /// Which rows each user sees and may change (``/BoutiqueSync/SyncRules``); `nil` or empty: every user of a tenant
    /// sees and changes every row.
    public nonisolated let rules: SyncRules?
    private nonisolated let resolver: SyncResolver?
    private nonisolated let authorize: SyncAuthorizer?
    nonisolated let wallClock: @Sendable () -> UInt64

    /// Commits per tenant, to wake long-polling pulls.
    private var commitCounts: [String: Int] = [:]
    private var waiters: [String: [UUID: CheckedContinuation<Void, Never>]] = [:]
    /// Woken long polls waiting for their answers, per tenant.
    var wokenPulls: [String: WokenPulls] = [:]
    /// Whether the store was asked to report other processes' commits.
    private var observingStore = false
    /// Set by ``endLongPolls()``: pulls answer at once.
    private var longPollsEnded = false
    /// Each tenant's synced tables' shapes as the store last had them, kept up to date with what its
    /// devices push (a server with rules places followers by them).
    var shapes = TenantShapes()
    /// How far known replicas pulled, not written yet.
    private var acknowledgements = PullAcknowledgements()
    /// The store's identity and history once read (neither changes while the server serves the
    /// store); `.some(nil)` for a store without an identity.
    private var storeIdentity: (identity: String, history: String?)??

    /// - Parameters:
    ///   - store: Where the data lives.
    ///   - resolver: Runs after the merge for each pushed insert or update; see ``SyncResolver``.
    ///   - authorize: Whether a user may make a change; see ``SyncAuthorizer``.
    ///   - maximumClockSkewMilliseconds: How far ahead of the server a stamp may be.
    ///   - minimumSchemaVersion: The oldest app schema version whose pushes are accepted.
    ///   - rules: Which rows each user sees and may change (sharing between users); see ``/BoutiqueSync/SyncRules``.
    ///     Check them against what devices described with ``checkRules()`` when the server starts.
    ///   - limits: How large pushed values, rows, names and answers' pages may be; see ``SyncServerLimits``.
    public init(
        store: any SyncStore, rules: SyncRules? = nil, resolver: SyncResolver? = nil, authorize: SyncAuthorizer? = nil,
        maximumClockSkewMilliseconds: UInt64 = SyncProtocol.defaultMaximumClockSkewMilliseconds,
        minimumSchemaVersion: Int = 0, limits: SyncServerLimits = SyncServerLimits()
    ) {
        self.init(
            store: store, rules: rules, resolver: resolver, authorize: authorize,
            maximumClockSkewMilliseconds: maximumClockSkewMilliseconds, minimumSchemaVersion: minimumSchemaVersion, limits: limits,
            wallClock: { UInt64(max(0, Date().timeIntervalSince1970 * 1000)) })
    }

    /// A server whose wall clock is `wallClock` (milliseconds since 1970), for simulations.
    public init(
        store: any SyncStore, rules: SyncRules? = nil, resolver: SyncResolver? = nil, authorize: SyncAuthorizer? = nil,
        maximumClockSkewMilliseconds: UInt64, minimumSchemaVersion: Int = 0, limits: SyncServerLimits = SyncServerLimits(),
        wallClock: @escaping @Sendable () -> UInt64
    ) {
        self.limits = limits
        self.store = store
        self.rules = rules?.isEmpty == true ? nil : rules
        self.resolver = resolver
        self.authorize = authorize
        self.maximumClockSkewMilliseconds = maximumClockSkewMilliseconds
        self.minimumSchemaVersion = minimumSchemaVersion
        self.wallClock = wallClock
    }

    // MARK: Push

    /// Applies a device's transactions by the merge rule, with its watermark and digest, in one store transaction.
    public func push(_ request: PushRequest, tenant: String) async throws -> PushResponse {
        try await push(request, tenant: tenant, user: nil)
    }

    /// Applies a push made by `user` (from the request's verified token): the authorization hook
    /// sees every change first. `user` is `nil` for trusted code, whose pushes are not checked.
    ///
    /// Table and column names are lowercased after the push is validated (see `PushNames`): a table
    /// is one table in whatever case a device names it, as in SQLite.
    public func push(_ request: PushRequest, tenant: String, user: String?) async throws -> PushResponse {
        try await identified(applying(request, tenant: tenant, user: user), tenant: tenant)
    }

    private func applying(_ request: PushRequest, tenant: String, user: String?) async throws -> PushResponse {
        let wall = wallClock()
        if let (kind, reason) = PushValidation.problem(
            in: request, wall: wall, maximumSkew: maximumClockSkewMilliseconds, minimumSchemaVersion: minimumSchemaVersion,
            limits: limits)
        {
            return try await refusal(of: request, tenant: tenant, wall: wall, kind: kind, reason: reason)
        }
        let request = PushNames.folded(request)
        // Each transaction with a change the user may not make is refused alone: recorded as handled,
        // not applied, and answered with the server's version of its rows.
        // A transaction over a limit is refused alone too: the device undoes it and its later work goes on.
        var denials = PushValidation.oversizedValues(in: request, limits: limits)
        if let authorize, let user {
            for transaction in request.transactions where denials[transaction.id] == nil {
                guard let denied = transaction.changes.first(where: { !authorize(user, $0) }) else { continue }
                denials[transaction.id] = PushApplier.Denial(
                    change: denied, reason: "user '\(user)' may not \(denied.kind) rows of '\(denied.table)'")
            }
        }
        let resolver = self.resolver
        let rules = self.rules
        let pushed = request.tables == shapes[tenant]?.lastPushed ? nil : request.tables
        let known = shapes[tenant]
        let maximumRowStateBytes = limits.maximumRowStateBytes
        let maximumRefusalBytes = limits.maximumPageBytes
        let maximumTransactionChanges = limits.maximumTransactionChanges
        // A transaction growing a row past its limit is found while the push is applied: the store
        // transaction rolls back, and the push is applied again with it refused (each time one more).
        while true {
            let refusing = denials
            let response: PushResponse
            let updatedShapes: (shapes: [String: SyncTableShape], version: Int64)?
            var mismatches: [String] = []
            do {
                (response, updatedShapes, mismatches) = try await store.transaction(tenant: tenant) { store in
                    // The user's devices reach the server: sharing with them can say so.
                    if let user { try store.noteConnected(user) }
                    // Read when the cache has none (a restarted server) or has them from before another
                    // instance changed them: the rules place rows by them, which columns merge as text is
                    // theirs, and every server learns from them which rows point at attachments.
                    // What the push describes is checked against them again then, as if it were new:
                    // it matched what this instance knew, not what the other one recorded.
                    let stale = try known.map { known in try known.version != store.tableShapesVersion() } ?? true
                    let current = try Self.record(stale ? request.tables : pushed, readingAnyway: stale, in: store)
                    // Worked out again only when the shapes were read: a push describing what the tenant
                    // described before costs nothing more.
                    let mismatches = current.map { current in rules?.mismatches(with: Array(current.values)) ?? [] } ?? known?.mismatches ?? []
                    let shapes = current ?? known?.shapes ?? [:]
                    var applier = PushApplier(store: store, wall: wall, resolver: resolver)
                    applier.placer = rules.map { SpacePlacer(rules: $0, shapes: shapes) }
                    applier.rulesMismatch = mismatches.isEmpty ? nil : Self.rulesMismatch(mismatches, tenant: tenant)
                    applier.user = user
                    applier.textColumns = TextColumns(shapes: shapes.values)
                    try PushedText.check(request, textColumns: applier.textColumns)
                    applier.maximumRowStateBytes = maximumRowStateBytes
                    applier.maximumRefusalBytes = maximumRefusalBytes
                    applier.attachmentColumns = Self.attachmentColumns(of: shapes)
                    let read = try current.map { ($0, try store.tableShapesVersion()) }
                    guard let part = request.part else { return (try applier.apply(request, refusing: refusing), read, mismatches) }
                    return (
                        try applier.applyPart(request, part: part, refusing: refusing, maximumChanges: maximumTransactionChanges), read,
                        mismatches
                    )
                }
            } catch let found as PushApplier.RefusedWhileApplied {
                // The store transaction rolled back: nothing of the push is stored yet.
                if let again = found.refused.first(where: { denials[$0.transactionID] != nil }) {
                    return try await refusal(of: request, tenant: tenant, wall: wall, kind: again.kind, reason: again.reason)
                }
                for refused in found.refused {
                    denials[refused.transactionID] = PushApplier.Denial(change: refused.change, reason: refused.reason, kind: refused.kind)
                }
                continue
            } catch let tooMany as TooManyShapes {
                return try await refusal(of: request, tenant: tenant, wall: wall, kind: .invalid, reason: tooMany.reason)
            } catch let mismatch as CollaborativeTextMismatch {
                return try await refusal(of: request, tenant: tenant, wall: wall, kind: .invalid, reason: mismatch.reason)
            } catch let refused as PushedText.Refused {
                return try await refusal(of: request, tenant: tenant, wall: wall, kind: .invalid, reason: refused.reason)
            } catch let refused as PushApplier.PartRefused {
                return try await refusal(of: request, tenant: tenant, wall: wall, kind: refused.kind, reason: refused.reason)
            } catch let refused as PushApplier.StagedSliceRefused {
                // A later slice of a transaction sent in parts was refused: what the slices before it
                // applied rolled back, and the refusal is recorded alone.
                let denial = refused.denial
                response = try await store.transaction(tenant: tenant) { store in
                    var applier = PushApplier(store: store, wall: wall, resolver: resolver)
                    applier.user = user
                    return try applier.refuseStaged(request, denial: denial)
                }
                updatedShapes = nil
            }
            shapes.update(tenant, shapes: updatedShapes, mismatches: mismatches, pushed: request.tables)
            if response.outcome == .accepted, !request.transactions.isEmpty { didCommit(tenant: tenant) }
            return response
        }
    }

    /// A refused push's answer. The replica's watermark goes with it: a device whose clock ran ahead
    /// stamps its unacknowledged transactions again, and must know which of them the server already
    /// has (told only to the device holding the replica's secret), and which of those it refused.
    private func refusal(
        of request: PushRequest, tenant: String, wall: UInt64, kind: SyncRefusal.Reason, reason: String
    ) async throws -> PushResponse {
        let replica = request.replica
        let named = !replica.isEmpty && RequestLimits.replicaProblem(replica, limits: limits) == nil
        let secret = request.replicaSecret
        let base = request.baseTransactionID
        let (time, record, passed) = try await store.read(tenant: tenant) { store in
            let record = named ? try Self.disclosed(try store.replica(replica), secret: secret) : nil
            let passed = try record.flatMap { try PushApplier.refusals(passedBy: $0, base: base, in: store) }
            return (try Self.tick(store, wall: wall), record, passed)
        }
        return PushResponse(
            outcome: .refused, appliedThrough: record?.appliedThrough ?? 0, digest: record?.digest, reason: reason, refusal: kind,
            serverTime: time, refusals: passed)
    }

    /// A replica's record as a reply may tell it: `nil` unless the request carries the replica's secret
    /// (or the id is bound to none).
    static func disclosed(_ record: ReplicaRecord?, secret: String?) throws -> ReplicaRecord? {
        try ReplicaSecret.check(secret, against: record) == .wrong ? nil : record
    }

    /// The server's time for a reply: its clock read at `wall`. Only stamps the server hands out (a
    /// resolver's) are stored; a reply's time is advice that only moves device clocks forward, so it
    /// need not be.
    static func tick(_ store: any SyncStoreTransaction, wall: UInt64) throws -> HybridTimestamp {
        var clock = HybridLogicalClock(last: try store.clock())
        return clock.tick(now: wall)
    }

    // MARK: Identity

    /// `reply`, saying which server made it: the store's identity and `tenant`.
    private func identified<Reply: SyncServerIdentified>(_ reply: Reply, tenant: String) async throws -> Reply {
        if storeIdentity == nil {
            let identity = try await store.identity()
            let history = identity == nil ? nil : try await store.history()
            storeIdentity = .some(identity.map { ($0, history) })
        }
        guard case .some(.some(let known)) = storeIdentity else { return reply }
        var reply = reply
        reply.server = SyncServerID(store: known.identity, tenant: tenant, history: known.history)
        return reply
    }

    // MARK: Pull

    /// The whole server transactions after the cursor, waiting up to the request's `waitMilliseconds` when there are none.
    public func pull(_ request: PullRequest, tenant: String) async throws -> PullResponse {
        try await pull(request, tenant: tenant, user: nil)
    }

    /// The changes `user` may see after the cursor (on a server with rules, those of the spaces they
    /// are in, and the events that change which those are); `nil` for trusted code, which sees all.
    public func pull(_ request: PullRequest, tenant: String, user: String?) async throws -> PullResponse {
        try await identified(pulling(request, tenant: tenant, user: user), tenant: tenant)
    }

    private func pulling(_ request: PullRequest, tenant: String, user: String?) async throws -> PullResponse {
        if request.waitMilliseconds > 0 { try await observeStoreCommits() }
        let before = commitCounts[tenant, default: 0]
        let first = try await pullOnce(request, tenant: tenant, user: user)
        guard request.waitMilliseconds > 0, first.outcome == .changes, first.changes.isEmpty, first.events == nil, !first.hasMore,
            first.nextCursor == request.cursor
        else { return first }
        if commitCounts[tenant, default: 0] == before, !longPollsEnded {
            await waitForCommit(tenant: tenant, milliseconds: request.waitMilliseconds)
        }
        // Read with the tenant's other woken polls, by a task of their own: a poll whose request was
        // cancelled (the front end shutting down wakes its waiting polls so) still gets its answer,
        // which a store's read may refuse to start for a cancelled task.
        return try await answerWoken(request, tenant: tenant, user: user)
    }

    private func pullOnce(_ request: PullRequest, tenant: String, user: String?) async throws -> PullResponse {
        let spaced = rules != nil ? user : nil
        let wall = wallClock()
        let limits = self.limits
        let page = try await store.read(tenant: tenant) { store in
            var reading = PullReading(store: store, wall: wall, limits: limits)
            return try reading.page(for: request, user: spaced)
        }
        if acknowledge(page, of: request, tenant: tenant, wall: wall) {
            try? await writePullAcknowledgements(tenant: tenant)
        }
        return page.response
    }

    /// Remembers how far a known replica pulled; `true` when the tenant's remembered cursors are due to
    /// be written.
    ///
    /// A device that says how far it has passed (``/BoutiqueSyncCore/PullRequest/passedThrough``: what
    /// it has applied, or less while its collaborative text edits wait to be acknowledged) is counted
    /// no further by this pull: garbage collection then drops nothing it still needs (see
    /// ``collectGarbage(tenant:inactiveAfterMilliseconds:)``). A replica's recorded position only moves
    /// forward, so a position counted before (by a server or device that predates the field, or for a
    /// file restored from a copy under the same replica id) stays; an edit made from text compacted
    /// since is refused and reported, not lost.
    func acknowledge(_ page: PullReading.Page, of request: PullRequest, tenant: String, wall: UInt64) -> Bool {
        guard let next = page.acknowledged else { return false }
        let cursor = request.passedThrough.map { min(next, max(0, $0)) } ?? next
        return acknowledgements.note(tenant: tenant, replica: request.replica, cursor: cursor, wall: wall)
    }

    /// Writes the pull cursors remembered for `tenant` in one store transaction.
    ///
    /// A failed write puts them back for the next try; the pull that triggered it still answers,
    /// since an unwritten cursor only makes garbage collection keep more.
    func writePullAcknowledgements(tenant: String) async throws {
        let marks = acknowledgements.take(tenant: tenant)
        guard !marks.isEmpty else { return }
        do {
            try await store.transaction(tenant: tenant) { store in try PullAcknowledgements.write(marks, in: store) }
        } catch {
            acknowledgements.restore(marks, tenant: tenant, wall: wallClock())
            throw error
        }
    }

    /// Writes every pull cursor the server remembers to the store, one transaction per tenant: for a
    /// server that is shutting down.
    ///
    /// ```swift
    /// await server.endLongPolls()
    /// try await server.writePullCursors()
    /// ```
    ///
    /// Pulls never write to the store: the server remembers how far each known replica pulled and
    /// writes it every minute or so, before collecting garbage, and here. A cursor not written (the
    /// process was killed) is only older than the replica's, which makes garbage collection keep more.
    public func writePullCursors() async throws {
        for tenant in acknowledgements.tenants.sorted() {
            try await writePullAcknowledgements(tenant: tenant)
        }
    }

    // MARK: Snapshot

    /// A page of the merged state, tombstones included, with the log position it includes.
    public func snapshot(_ request: SnapshotRequest, tenant: String) async throws -> SnapshotResponse {
        try await snapshot(request, tenant: tenant, user: nil)
    }

    /// A page of the state `user` may see (on a server with rules, the rows of the spaces they are in
    /// now); `nil` for trusted code, which sees all.
    public func snapshot(_ request: SnapshotRequest, tenant: String, user: String?) async throws -> SnapshotResponse {
        let (response, readShapes) = try await snapshotPage(request, tenant: tenant, user: user)
        var page = response
        // Shapes a page had to read (none cached, or another instance changed them) are kept for the
        // next pages and pushes, unless a newer version came meanwhile.
        if let readShapes, shapes[tenant].map({ $0.version < readShapes.version }) ?? true {
            shapes.update(
                tenant, shapes: readShapes, mismatches: rules?.mismatches(with: Array(readShapes.shapes.values)) ?? [], pushed: nil)
        }
        // Packed after the store's read has ended: the read holds the tenant's snapshot open.
        if request.packsRows == true, page.reason == nil { page.packRows() }
        return try await identified(page, tenant: tenant)
    }

    /// A page, and the tenant's shapes with their version when the page read them from the store.
    private func snapshotPage(
        _ request: SnapshotRequest, tenant: String, user: String?
    ) async throws -> (SnapshotResponse, (shapes: [String: SyncTableShape], version: Int64)?) {
        let wall = wallClock()
        let spaced = rules != nil ? user : nil
        let rules = self.rules
        let known = shapes[tenant]
        let limits = self.limits
        let maximumBytes = limits.maximumPageBytes
        return try await store.read(tenant: tenant) { store in
            let time = try Self.tick(store, wall: wall)
            guard request.protocolVersion == SyncProtocol.version else {
                return (
                    SnapshotResponse(
                        rows: [], next: nil, cursor: 0,
                        reason: "protocol version \(request.protocolVersion) is not \(SyncProtocol.version)", refusal: .protocolMismatch,
                        serverTime: time),
                    nil
                )
            }
            if let problem = RequestLimits.replicaProblem(request.replica, limits: limits)
                ?? RequestLimits.positionProblem(request.after, limits: limits)
                ?? request.space.flatMap({ RequestLimits.spaceProblem($0, limits: limits) })
            {
                return (SnapshotResponse(rows: [], next: nil, cursor: 0, reason: problem, refusal: .invalid, serverTime: time), nil)
            }
            let limit = min(max(request.limit, 1), 10_000)
            if let spaced, let rules {
                let version = try store.tableShapesVersion()
                let cached = known.flatMap { known in known.version == version ? known.shapes : nil }
                let shapes = try cached ?? Dictionary(store.tableShapes().map { ($0.table, $0) }, uniquingKeysWith: { first, _ in first })
                let page = try SpaceSnapshot(store: store, user: spaced, sharedTables: rules.sharedTables(shapes: shapes))
                    .page(request, limit: limit, maximumBytes: maximumBytes, time: time)
                return (page, cached == nil ? (shapes, version) : nil)
            }
            // The rows' sizes first, then as many rows as the byte budget holds (the first however large).
            var budget = PageBudget(maximumBytes: maximumBytes)
            let count = budget.take(try store.rowSizes(after: request.after, limit: limit))
            let rows = count > 0 ? try store.rows(after: request.after, limit: count) : []
            let next = rows.count == limit || budget.isSpent ? rows.last.map { SnapshotPosition(table: $0.table, key: $0.key) } : nil
            // Counted for the first page (and a resumed bootstrap's first request) only: a count per
            // page would read the tenant's rows again for every page.
            let total = request.after == nil || request.includeTotal == true ? try store.rowCount() : nil
            // `cursor` is the log position of this page's transaction. A device keeps the one of its
            // first page: every later page is read after it, and a row's state only gains changes,
            // so each row it gets includes every change up to that position; what changed after it
            // (rows before the device's position included) the pull from there brings, and merging
            // a change again is harmless. A tombstone collected meanwhile moved the log's horizon
            // past that position only if every active replica pulled past it; the pull then finds
            // its cursor too old and the device bootstraps again.
            return (SnapshotResponse(rows: rows, next: next, cursor: try store.latestSequence(), serverTime: time, totalRows: total), nil)
        }
    }

    // MARK: Garbage

    /// What ``collectGarbage(tenant:inactiveAfterMilliseconds:)`` removed.
    public struct GarbageReport: Hashable, Sendable {
        /// The log position every active replica has pulled past; the log was pruned through it.
        public var horizon: Int64
        /// Deleted rows whose tombstones were dropped.
        public var tombstonesRemoved: Int
        /// Collaborative texts whose deleted characters were dropped (see ``collectGarbage(tenant:inactiveAfterMilliseconds:)``).
        public var textsCompacted: Int = 0
    }

    /// Drops tombstones and log entries every active replica has pulled past, and compacts the
    /// collaborative texts of rows last changed there (``GarbageReport/textsCompacted``): their deleted
    /// characters are dropped once no edit still to come can name them.
    ///
    /// ```swift
    /// let report = try await server.collectGarbage(tenant: "acme", inactiveAfterMilliseconds: 30 * 86_400_000)
    /// ```
    ///
    /// A replica is active unless it retired its id or has not been seen for `inactiveAfterMilliseconds`
    /// (never, when `nil`). An inactive replica that comes back is told to bootstrap again from a
    /// snapshot.
    public func collectGarbage(tenant: String, inactiveAfterMilliseconds: UInt64? = nil) async throws -> GarbageReport {
        let wall = wallClock()
        // The cursors pulls remembered are written first, in the same transaction: collection then
        // sees how far every replica pulled through this server.
        let marks = acknowledgements.take(tenant: tenant)
        do {
            return try await collectGarbage(tenant: tenant, inactiveAfterMilliseconds: inactiveAfterMilliseconds, wall: wall, marks: marks)
        } catch {
            acknowledgements.restore(marks, tenant: tenant, wall: wall)
            throw error
        }
    }

    private func collectGarbage(
        tenant: String, inactiveAfterMilliseconds: UInt64?, wall: UInt64, marks: [String: PullAcknowledgements.Mark]
    ) async throws -> GarbageReport {
        try await store.transaction(tenant: tenant) { store in
            try PullAcknowledgements.write(marks, in: store)
            let active = try store.replicas().filter { replica in
                guard !replica.isRetired else { return false }
                guard let limit = inactiveAfterMilliseconds else { return true }
                return wall < limit || replica.lastSeen >= wall - limit
            }
            // Transactions a device stopped sending in parts are forgotten with the devices that went away.
            if let limit = inactiveAfterMilliseconds, wall >= limit { _ = try store.removeStagedTransactions(updatedThrough: wall - limit) }
            let latest = try store.latestSequence()
            let horizon = active.map(\.cursor).min() ?? latest
            guard horizon > (try store.logHorizon()) else {
                return GarbageReport(horizon: try store.logHorizon(), tombstonesRemoved: 0)
            }
            // Before the log that names the rows changed since the last round is pruned.
            let compacted = try TextCompaction.compact(in: store, after: try store.logHorizon(), through: horizon)
            let removed = try store.removeTombstones(through: horizon)
            try store.pruneLog(through: horizon)
            try store.pruneMemberships(through: horizon)
            return GarbageReport(horizon: horizon, tombstonesRemoved: removed, textsCompacted: compacted)
        }
    }

    // MARK: Long polls

    /// Subscribes to commits other servers make to the store (once), before the first long poll
    /// reads, so that none committed in between is missed.
    private func observeStoreCommits() async throws {
        guard !observingStore else { return }
        observingStore = true
        do {
            try await store.observeCommits { [weak self] tenant in
                Task { await self?.didCommit(tenant: tenant) }
            }
        } catch {
            observingStore = false
            throw error
        }
    }

    /// Answers every waiting long poll now, and every later pull at once: for a server that is
    /// shutting down and must not keep devices waiting until their polls time out.
    ///
    /// ```swift
    /// await server.endLongPolls()
    /// ```
    public func endLongPolls() {
        longPollsEnded = true
        let waiting = waiters
        waiters = [:]
        for continuation in waiting.values.flatMap(\.values) { continuation.resume() }
    }

    func didCommit(tenant: String) {
        commitCounts[tenant, default: 0] += 1
        if let waiting = waiters.removeValue(forKey: tenant) {
            for continuation in waiting.values { continuation.resume() }
        }
    }

    private func waitForCommit(tenant: String, milliseconds: Int) async {
        let id = UUID()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                waiters[tenant, default: [:]][id] = continuation
                Task { [weak self] in
                    try? await Task.sleep(for: .milliseconds(milliseconds))
                    await self?.stopWaiting(tenant: tenant, id: id)
                }
            }
        } onCancel: {
            Task { [weak self] in await self?.stopWaiting(tenant: tenant, id: id) }
        }
    }

    /// How many long polls of `tenant` wait for a commit now.
    func waitingPolls(tenant: String) -> Int { waiters[tenant]?.count ?? 0 }

    private func stopWaiting(tenant: String, id: UUID) {
        waiters[tenant]?.removeValue(forKey: id)?.resume()
    }
}
