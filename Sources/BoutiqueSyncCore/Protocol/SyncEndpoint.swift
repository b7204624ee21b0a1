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
    /// Returns a page of the current state.
    func snapshot(_ request: SnapshotRequest, tenant: String) async throws -> SnapshotResponse
}

extension SyncEndpoint {
    /// Applies the push without a user: endpoints that check no rights need nothing more.
    public func push(_ request: PushRequest, tenant: String, user: String?) async throws -> PushResponse {
        try await push(request, tenant: tenant)
    }
}
