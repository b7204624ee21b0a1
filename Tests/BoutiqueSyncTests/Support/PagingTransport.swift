import BoutiqueSQLite
import BoutiqueSync
import Synchronization

/// A transport that serves snapshots in small pages, counts the pages the server served and the
/// positions they were asked after, and can fail the snapshot requests after a number of pages (as a
/// device killed or cut off in the middle of a bootstrap would).
final class PagingTransport: SyncTransport {
    struct Interrupted: Error {}

    let base: InProcessTransport
    let pageSize: Int
    /// Pages served so far.
    let pagesServed = Atomic<Int>(0)
    /// Snapshot requests that fail from now on once this many more pages are served; negative: none fail.
    let pagesBeforeFailure = Atomic<Int>(-1)
    /// The positions the served pages were asked after (`nil` for a first page).
    let positions = Lock<[SnapshotPosition?]>([])
    /// Runs after a page is served and before the device gets it.
    let afterPage = Lock<(@Sendable (Int) async throws -> Void)?>(nil)

    init(_ base: InProcessTransport, pageSize: Int) {
        self.base = base
        self.pageSize = pageSize
    }

    var serverIdentifier: String { base.serverIdentifier }

    /// Lets `pages` more pages through, then fails snapshot requests.
    func failAfter(pages: Int) { pagesBeforeFailure.store(pages, ordering: .relaxed) }
    func heal() { pagesBeforeFailure.store(-1, ordering: .relaxed) }

    func push(_ request: PushRequest) async throws -> PushResponse { try await base.push(request) }
    func pull(_ request: PullRequest) async throws -> PullResponse { try await base.pull(request) }

    func snapshot(_ request: SnapshotRequest) async throws -> SnapshotResponse {
        let remaining = pagesBeforeFailure.load(ordering: .relaxed)
        if remaining == 0 { throw Interrupted() }
        if remaining > 0 { pagesBeforeFailure.subtract(1, ordering: .relaxed) }
        var request = request
        request.limit = pageSize
        let page = try await base.snapshot(request)
        let served = pagesServed.add(1, ordering: .relaxed).newValue
        positions.withLock { $0.append(request.after) }
        if let hook = afterPage.withLock({ $0 }) { try await hook(served) }
        return page
    }
}
