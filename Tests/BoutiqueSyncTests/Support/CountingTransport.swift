import BoutiqueSync
import Synchronization

/// A transport that counts the round trips a device makes, by kind, and the pulls that brought it
/// nothing (no change and no event).
final class CountingTransport: SyncTransport {
    let base: InProcessTransport
    let pushes = Atomic<Int>(0)
    let pulls = Atomic<Int>(0)
    let emptyPulls = Atomic<Int>(0)
    let snapshots = Atomic<Int>(0)

    init(_ base: InProcessTransport) { self.base = base }

    var serverIdentifier: String { base.serverIdentifier }

    /// Starts counting anew.
    func reset() {
        pushes.store(0, ordering: .relaxed)
        pulls.store(0, ordering: .relaxed)
        emptyPulls.store(0, ordering: .relaxed)
        snapshots.store(0, ordering: .relaxed)
    }

    func push(_ request: PushRequest) async throws -> PushResponse {
        pushes.add(1, ordering: .relaxed)
        return try await base.push(request)
    }

    func pull(_ request: PullRequest) async throws -> PullResponse {
        pulls.add(1, ordering: .relaxed)
        let response = try await base.pull(request)
        if response.changes.isEmpty, response.events?.isEmpty ?? true { emptyPulls.add(1, ordering: .relaxed) }
        return response
    }

    func snapshot(_ request: SnapshotRequest) async throws -> SnapshotResponse {
        snapshots.add(1, ordering: .relaxed)
        return try await base.snapshot(request)
    }

    func membership(_ request: MembershipRequest, action: MembershipAction) async throws -> MembershipResponse {
        try await base.membership(request, action: action)
    }
}
