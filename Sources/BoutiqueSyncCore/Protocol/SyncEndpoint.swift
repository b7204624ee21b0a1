/// What answers sync requests: the server's logic in this process, or (through a transport) one
/// across the network. `tenant` keeps one customer's data from another's.
///
/// ```swift
/// let response = try await server.push(request, tenant: "acme")
/// ```
public protocol SyncEndpoint: Sendable {
    /// Applies a device's transactions.
    func push(_ request: PushRequest, tenant: String) async throws -> PushResponse
    /// Applies a device's transactions as made by `user`, whose rights the server checks (`nil`:
    /// trusted code, unchecked).
    func push(_ request: PushRequest, tenant: String, user: String?) async throws -> PushResponse
    /// Returns the changes after a cursor.
    func pull(_ request: PullRequest, tenant: String) async throws -> PullResponse
    /// Returns the changes after a cursor that `user` may see (`nil`: trusted code, which sees all).
    func pull(_ request: PullRequest, tenant: String, user: String?) async throws -> PullResponse
    /// Returns a page of the current state.
    func snapshot(_ request: SnapshotRequest, tenant: String) async throws -> SnapshotResponse
    /// Returns a page of the current state that `user` may see (`nil`: trusted code, which sees all).
    func snapshot(_ request: SnapshotRequest, tenant: String, user: String?) async throws -> SnapshotResponse
    /// Shares, unshares or lists the members of a shared space, as `user`.
    func membership(_ request: MembershipRequest, action: MembershipAction, tenant: String, user: String) async throws
        -> MembershipResponse
}

extension SyncEndpoint {
    /// Applies the push without a user: endpoints that check no rights need nothing more.
    public func push(_ request: PushRequest, tenant: String, user: String?) async throws -> PushResponse {
        try await push(request, tenant: tenant)
    }

    /// Pulls without a user: endpoints that check no rights need nothing more.
    public func pull(_ request: PullRequest, tenant: String, user: String?) async throws -> PullResponse {
        try await pull(request, tenant: tenant)
    }

    /// Pages without a user: endpoints that check no rights need nothing more.
    public func snapshot(_ request: SnapshotRequest, tenant: String, user: String?) async throws -> SnapshotResponse {
        try await snapshot(request, tenant: tenant)
    }

    /// Refuses: an endpoint without spaces shares nothing.
    public func membership(_ request: MembershipRequest, action: MembershipAction, tenant: String, user: String) async throws
        -> MembershipResponse
    {
        MembershipResponse(
            members: [], reason: "this server has no sync rules: nothing is shared between users", refusal: .invalid,
            serverTime: HybridTimestamp(rawValue: 0))
    }
}
