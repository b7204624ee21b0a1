import BoutiqueSQLite
import BoutiqueSync
import BoutiqueSyncServer
import Synchronization

/// A transport to a server in process that can be pointed at another one, under the same address:
/// how a running session sees its server replaced (by one restored from a backup, say) between two
/// requests.
final class SwitchableTransport: SyncTransport {
    private let current: Lock<InProcessTransport>
    let serverIdentifier: String
    /// Whether the answer to the next push that carries transactions is lost (after the server
    /// committed it).
    let losesNextAnswerWithTransactions = Atomic<Bool>(false)

    /// The most row changes a push may carry before it is refused as too large (as a server's body
    /// limit refuses it with a 413).
    let maximumChanges = Atomic<Int>(.max)

    /// Whether replies leave out the server's history (``SyncServerID/history``), as a server that
    /// predates histories answers.
    let hidesHistory = Atomic<Bool>(false)

    struct LostAnswer: Error {}

    init(_ base: InProcessTransport, address: String = "https://sync.example") {
        current = Lock(base)
        serverIdentifier = address
    }

    /// Sends every later request to `base`.
    func switchTo(_ base: InProcessTransport) { current.withLock { $0 = base } }

    private var base: InProcessTransport { current.withLock { $0 } }

    func push(_ request: PushRequest) async throws -> PushResponse {
        let changes = request.transactions.reduce(0) { $0 + $1.changes.count }
        if changes > maximumChanges.load(ordering: .relaxed) {
            throw SyncRefusal(reason: .tooLarge, message: "the push body is larger than the server takes")
        }
        let answer = told(try await base.push(request))
        if !request.transactions.isEmpty, losesNextAnswerWithTransactions.exchange(false, ordering: .relaxed) { throw LostAnswer() }
        return answer
    }
    func pull(_ request: PullRequest) async throws -> PullResponse { told(try await base.pull(request)) }
    func snapshot(_ request: SnapshotRequest) async throws -> SnapshotResponse { told(try await base.snapshot(request)) }

    /// `reply` as the device is told it: without the server's history when ``hidesHistory``.
    private func told<Reply: SyncServerIdentified>(_ reply: Reply) -> Reply {
        guard hidesHistory.load(ordering: .relaxed) else { return reply }
        var reply = reply
        reply.server?.history = nil
        return reply
    }
    func membership(_ request: MembershipRequest, action: MembershipAction) async throws -> MembershipResponse {
        try await base.membership(request, action: action)
    }
}
