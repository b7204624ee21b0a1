import BoutiqueSyncCore

/// Pull answers read in one store transaction, which share what does not depend on the asking device:
/// the server's time, the log's bounds, and each page of the whole log read so far.
///
/// ```swift
/// let pages = try await store.read(tenant: tenant) { store in
///     var reading = PullReading(store: store, wall: wall, limits: limits)
///     return try requests.map { try reading.page(for: $0, user: nil) }
/// }
/// ```
///
/// A commit wakes every long poll of its tenant at once, and they all ask for the same page (the one
/// after the cursor they waited at): read together, the page is read once and each device gets it
/// without its own changes.
struct PullReading {
    /// One pull's answer.
    struct Page: Sendable {
        var response: PullResponse
        /// The cursor to remember for the replica (it moved, or the replica was not seen for a minute);
        /// `nil`: nothing to remember.
        var acknowledged: Int64?
        /// The bytes the store counted for the page's changes.
        var bytes: Int
    }

    /// A page of the whole log, before a device's own changes are left out of it.
    private struct LogPage {
        let logged: [LoggedChange]
        let next: Int64
        let hasMore: Bool
        let bytes: Int
    }

    private struct LogPageKey: Hashable {
        let cursor: Int64
        let limit: Int
    }

    let store: any SyncStoreTransaction
    let wall: UInt64
    let limits: SyncServerLimits
    private var time: HybridTimestamp?
    private var bounds: (latest: Int64, horizon: Int64)?
    private var logPages: [LogPageKey: LogPage] = [:]

    init(store: any SyncStoreTransaction, wall: UInt64, limits: SyncServerLimits) {
        self.store = store
        self.wall = wall
        self.limits = limits
    }

    /// The answer to `request`: the changes after its cursor (those `user` may see, on a server with
    /// rules; `nil`: all of them), or why it is refused.
    mutating func page(for request: PullRequest, user: String?) throws -> Page {
        let time = try serverTime()
        func refused(_ reason: String, _ kind: SyncRefusal.Reason) -> Page {
            Page(
                response: PullResponse(
                    outcome: .refused, changes: [], nextCursor: request.cursor, hasMore: false, reason: reason, refusal: kind,
                    serverTime: time),
                acknowledged: nil, bytes: 0)
        }
        guard request.protocolVersion == SyncProtocol.version else {
            return refused("protocol version \(request.protocolVersion) is not \(SyncProtocol.version)", .protocolMismatch)
        }
        guard request.cursor >= 0, !request.replica.isEmpty else {
            return refused("a pull needs a replica id and a cursor of at least 0", .invalid)
        }
        if let problem = RequestLimits.replicaProblem(request.replica, limits: limits) ?? RequestLimits.secretProblem(request.replicaSecret) {
            return refused(problem, .invalid)
        }
        // A replica id bound to another device's secret is refused before anything is read: its
        // watermark would tell what a takeover needs, and its cursor is that device's.
        let record = try store.replica(request.replica)
        if try ReplicaSecret.check(request.replicaSecret, against: record) == .wrong {
            return refused(ReplicaSecret.refusal(request.replica), .replicaTaken)
        }
        let (latest, horizon) = try logBounds()
        guard request.cursor >= horizon, request.cursor <= latest else {
            var response = PullResponse(outcome: .resetRequired, changes: [], nextCursor: request.cursor, hasMore: false, serverTime: time)
            // A cursor past the end: this server lost history the device pulled (a restore from a backup).
            if request.cursor > latest { response.logEnd = latest }
            return Page(response: response, acknowledged: nil, bytes: 0)
        }
        let limit = min(max(request.limit, 1), 10_000)
        // A page that would bring the device nothing but its own changes (after it pushed many) is
        // passed over in the same request, so that it catches up in as many round trips as others'
        // changes take, not its own.
        var part = try devicePage(after: request.cursor, limit: limit, latest: latest, replica: request.replica, user: user)
        // Where the own changes are, without their values: the pages passed over are dropped.
        var own = part.own.map { (sequence: $0.sequence, stamp: $0.change.stamp) }
        var passed = 1
        while part.changes.isEmpty, part.events.isEmpty, part.hasMore, passed < Self.ownPagesPerPull {
            let from = part.next
            // Only the first page is kept for other requests of the read: others at the same cursor
            // stop there, since it holds changes of the device that is not theirs.
            part = try devicePage(after: from, limit: limit, latest: latest, replica: request.replica, user: user, keep: false)
            own += part.own.lazy.map { (sequence: $0.sequence, stamp: $0.change.stamp) }
            passed += 1
            if part.next <= from { break }
        }
        let next = part.next
        // Nothing is written: a known replica's new cursor is remembered and written later with
        // others (see `PullAcknowledgements`); an unknown one is not remembered at all.
        var response = PullResponse(outcome: .changes, changes: part.changes, nextCursor: next, hasMore: part.hasMore, serverTime: time)
        if !part.events.isEmpty { response.events = part.events }
        if !own.isEmpty { response.ownTransactions = LoggedTransaction.transactions(of: own) }
        if let record, record.appliedThrough > 0 {
            response.replicaWatermark = record.appliedThrough
            response.replicaDigest = record.digest
        }
        let moved = record.map { !$0.isRetired && (next > $0.cursor || wall >= $0.lastSeen + 60_000) } ?? false
        return Page(response: response, acknowledged: moved ? next : nil, bytes: part.bytes)
    }

    /// The most pages of the log one pull reads while they hold only the asking device's own changes:
    /// a device that pushed many changes gets past them in one round trip, or a few, and the reading
    /// of one request stays bounded (each page passed over is read, and dropped, in turn).
    static let ownPagesPerPull = 64

    /// One page as the asking device sees it: its own changes apart.
    private struct DevicePage {
        var changes: [ServerChange]
        var events: [SpaceEvent] = []
        /// The device's own changes the page passes (in log order): not sent, only where they are.
        var own: [ServerChange]
        var next: Int64
        var hasMore: Bool
        var bytes: Int
    }

    /// The page after `cursor` for `replica` (of `user`'s spaces on a server with rules); `keep`: the
    /// log's page is kept for other requests of this read.
    private mutating func devicePage(
        after cursor: Int64, limit: Int, latest: Int64, replica: String, user: String?, keep: Bool = true
    ) throws -> DevicePage {
        if let user {
            let page = try SpacePull(store: store, user: user, replica: replica).page(
                after: cursor, limit: limit, maximumBytes: limits.maximumPageBytes, latest: latest)
            return DevicePage(
                changes: page.changes, events: page.events, own: page.own, next: page.next, hasMore: page.hasMore, bytes: page.bytes)
        }
        let page = try logPage(after: cursor, limit: limit, latest: latest, keep: keep)
        // A device's own changes are not sent back to it (it has them). A copied file shares its
        // replica id with the original until one of them pushes; the one that then takes a new id
        // bootstraps again, which brings it what was left out under the shared id.
        return DevicePage(
            changes: page.logged.filter { $0.origin != replica }.map(\.entry),
            own: page.logged.filter { $0.origin == replica }.map(\.entry),
            next: page.next, hasMore: page.hasMore, bytes: page.bytes)
    }

    /// The fewest changes of a transaction a page carries when it cuts one: a transaction of at most
    /// this many changes (and four pages' bytes) goes whole, whatever the request's limit.
    static let largeTransactionChanges = 256

    /// How many of a server transaction's changes (after the cursor) one page carries when the
    /// transaction is much larger than a page — more changes than `limit` and
    /// ``largeTransactionChanges``, or more than four pages' bytes (a transaction a device sent in
    /// parts) — by number and by bytes (at their average size); `nil` when the page carries it
    /// whole, as a device applies it best.
    static func share(of batch: LogBatchSize, limit: Int, maximumBytes: Int) -> Int? {
        let limit = max(limit, largeTransactionChanges)
        guard batch.changes > limit || batch.bytes / 4 > maximumBytes else { return nil }
        let byBytes = batch.bytes > maximumBytes
            ? max(1, Int(Double(batch.changes) * Double(maximumBytes) / Double(max(batch.bytes, 1)))) : batch.changes
        return min(limit, byBytes, batch.changes)
    }

    /// The server's time for the answers: its clock read at `wall`, once.
    private mutating func serverTime() throws -> HybridTimestamp {
        if let time { return time }
        let read = try SyncServer.tick(store, wall: wall)
        time = read
        return read
    }

    /// The log's latest sequence number and its horizon (the oldest cursor it can continue), once.
    private mutating func logBounds() throws -> (latest: Int64, horizon: Int64) {
        if let bounds { return bounds }
        let read = (latest: try store.latestSequence(), horizon: try store.logHorizon())
        bounds = read
        return read
    }

    /// The page of the whole log after `cursor`, read once per cursor and limit (unless `keep` is
    /// false: it is not kept for the read's other requests).
    ///
    /// The page's whole server transactions are counted before any is read: as many as the byte
    /// budget holds (the first however large; after it, none larger than a page carries whole), then
    /// read by the range of their sequence numbers.
    private mutating func logPage(after cursor: Int64, limit: Int, latest: Int64, keep: Bool) throws -> LogPage {
        let key = LogPageKey(cursor: cursor, limit: limit)
        if let page = logPages[key] { return page }
        // A transaction after the first that is larger than a page carries whole (the store may have
        // counted it only in part) ends the page: it comes first in the next, which carries a share.
        let largest = max(limit, Self.largeTransactionChanges)
        let batches = try store.batchSizes(after: cursor, limit: limit).enumerated()
            .prefix { $0.offset == 0 || $0.element.changes <= largest }.map(\.element)
        var budget = PageBudget(maximumBytes: limits.maximumPageBytes)
        let taken = budget.take(batches.map(\.bytes))
        let logged: [LoggedChange]
        if taken == 1, let first = batches.first, let share = Self.share(of: first, limit: limit, maximumBytes: limits.maximumPageBytes) {
            // A transaction larger than a page (one a device sent in parts): a page's share of its
            // changes, the rest in the pages after it. Devices apply it in those pieces.
            logged = try store.changes(after: cursor, through: cursor + Int64(share))
        } else {
            // The whole transactions taken, read by the range of their sequence numbers: a read that
            // goes on to the end of the log, leaving out what follows them, costs the log's length.
            logged = taken > 0 ? try store.changes(after: cursor, through: batches[taken - 1].last) : []
        }
        let next = logged.last?.entry.sequence ?? cursor
        let page = LogPage(logged: logged, next: next, hasMore: next < latest, bytes: budget.used)
        if keep { logPages[key] = page }
        return page
    }
}
