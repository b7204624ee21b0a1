import BoutiqueSync
import BoutiqueSyncServer

/// A transport to a server in process that says it reaches it at `address`: how a device sees one
/// server through different spellings of its address, or different servers at one address.
struct AddressedTransport: SyncTransport {
    let base: InProcessTransport
    let address: String

    init(_ base: InProcessTransport, address: String) {
        self.base = base
        self.address = address
    }

    var serverIdentifier: String { address }

    func push(_ request: PushRequest) async throws -> PushResponse { try await base.push(request) }
    func pull(_ request: PullRequest) async throws -> PullResponse { try await base.pull(request) }
    func snapshot(_ request: SnapshotRequest) async throws -> SnapshotResponse { try await base.snapshot(request) }
    func membership(_ request: MembershipRequest, action: MembershipAction) async throws -> MembershipResponse {
        try await base.membership(request, action: action)
    }
}

/// A store that keeps no identity, as stores of servers before identities: its replies name no server.
struct NamelessStore: SyncStore {
    let base: SQLiteSyncStore

    func transaction<T: Sendable>(tenant: String, _ body: @Sendable (any SyncStoreTransaction) throws -> T) async throws -> T {
        try await base.transaction(tenant: tenant, body)
    }

    func read<T: Sendable>(tenant: String, _ body: @Sendable (any SyncStoreTransaction) throws -> T) async throws -> T {
        try await base.read(tenant: tenant, body)
    }
}
