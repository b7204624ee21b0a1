import BoutiqueSync
import Synchronization

/// A transport that loses the next answers it is told to (after the server has committed), or is
/// offline, to test what a device does when a reply never comes.
final class FlakyTransport: SyncTransport {
    struct Lost: Error {}

    let base: InProcessTransport
    let lostAnswers = Atomic<Int>(0)
    let offline = Atomic<Bool>(false)

    init(_ base: InProcessTransport) { self.base = base }

    var serverIdentifier: String { base.serverIdentifier }

    private func deliver<T>(_ call: () async throws -> T) async throws -> T {
        if offline.load(ordering: .relaxed) { throw Lost() }
        let answer = try await call()
        if lostAnswers.load(ordering: .relaxed) > 0 {
            lostAnswers.subtract(1, ordering: .relaxed)
            throw Lost()
        }
        return answer
    }

    func push(_ request: PushRequest) async throws -> PushResponse { try await deliver { try await base.push(request) } }
    func pull(_ request: PullRequest) async throws -> PullResponse { try await deliver { try await base.pull(request) } }
    func snapshot(_ request: SnapshotRequest) async throws -> SnapshotResponse { try await deliver { try await base.snapshot(request) } }
    func membership(_ request: MembershipRequest, action: MembershipAction) async throws -> MembershipResponse {
        try await deliver { try await base.membership(request, action: action) }
    }
}
