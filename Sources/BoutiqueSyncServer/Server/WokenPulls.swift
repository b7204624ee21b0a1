import BoutiqueSyncCore

/// The long polls of one tenant that a commit woke (or their wait ended), waiting to be answered,
/// and how many reads answer them now.
///
/// A commit wakes every long poll of its tenant at once: thousands of pulls after the same cursor.
/// Each read alone, they would cost a store transaction each, and a hop to a reader and back for
/// each; read by the dozen in one transaction (``PullReading``), the page after their cursor is read
/// once and the hops are shared. At most ``maximumReads`` reads answer a tenant's polls at once (each
/// also takes one of the tenant's read turns), so the rest of the store's readers stay free.
struct WokenPulls {
    struct Waiter {
        let request: PullRequest
        /// Whose spaces the answer holds, on a server with rules; `nil`: every change.
        let user: String?
        let continuation: CheckedContinuation<PullResponse, any Error>
    }

    /// Reads answering a tenant's woken polls at once.
    static let maximumReads = 2
    /// Polls one read answers at most.
    static let maximumPerRead = 64

    private(set) var waiting: [Waiter] = []
    /// Reads answering these polls now.
    var reads = 0

    mutating func append(_ waiter: Waiter) { waiting.append(waiter) }

    /// The next polls for one read, taken from the head of the line.
    mutating func takeForRead() -> [Waiter] {
        let count = min(waiting.count, Self.maximumPerRead)
        let taken = Array(waiting.prefix(count))
        waiting.removeFirst(count)
        return taken
    }

    /// Puts polls a read left unanswered back at the head of the line.
    mutating func putBack(_ waiters: some Collection<Waiter>) {
        waiting.insert(contentsOf: waiters, at: 0)
    }
}

extension SyncServer {
    /// The answer to a woken long poll, read with other woken polls of its tenant.
    func answerWoken(_ request: PullRequest, tenant: String, user: String?) async throws -> PullResponse {
        let spaced = rules != nil ? user : nil
        return try await withCheckedThrowingContinuation { continuation in
            wokenPulls[tenant, default: WokenPulls()].append(
                WokenPulls.Waiter(request: request, user: spaced, continuation: continuation))
            guard let reads = wokenPulls[tenant]?.reads, reads < WokenPulls.maximumReads else { return }
            wokenPulls[tenant]?.reads += 1
            Task { await self.answerWokenPulls(tenant: tenant) }
        }
    }

    /// Answers the tenant's woken polls, a read at a time, until none waits.
    private func answerWokenPulls(tenant: String) async {
        while let waiters = wokenPulls[tenant]?.takeForRead(), !waiters.isEmpty {
            let asked = waiters.map { ($0.request, $0.user) }
            let wall = wallClock()
            let limits = self.limits
            let pages: [Result<PullReading.Page, any Error>]
            do {
                // Pages are answered until they hold a page's worth of bytes (at least one): the
                // answers are all in memory until the read ends.
                pages = try await store.read(tenant: tenant) { store in
                    var reading = PullReading(store: store, wall: wall, limits: limits)
                    var pages: [Result<PullReading.Page, any Error>] = []
                    var bytes = 0
                    for (request, user) in asked where pages.isEmpty || bytes < limits.maximumPageBytes {
                        let page = Result { try reading.page(for: request, user: user) }
                        bytes += (try? page.get().bytes) ?? 0
                        pages.append(page)
                    }
                    return pages
                }
            } catch {
                for waiter in waiters { waiter.continuation.resume(throwing: error) }
                continue
            }
            wokenPulls[tenant]?.putBack(waiters.dropFirst(pages.count))
            var acknowledgementsDue = false
            for (waiter, page) in zip(waiters, pages) {
                if case .success(let page) = page, acknowledge(page, of: waiter.request, tenant: tenant, wall: wall) {
                    acknowledgementsDue = true
                }
                waiter.continuation.resume(with: page.map(\.response))
            }
            if acknowledgementsDue { try? await writePullAcknowledgements(tenant: tenant) }
        }
        wokenPulls[tenant]?.reads -= 1
        if let pulls = wokenPulls[tenant], pulls.reads == 0, pulls.waiting.isEmpty { wokenPulls[tenant] = nil }
    }
}
