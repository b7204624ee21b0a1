/// How a device reaches its sync server: the requests of the protocol.
///
/// ```swift
/// let sync = try await BoutiqueSync(database: db, tables: [Note.self], server: .inProcess(server))
/// ```
///
/// ``InProcessTransport`` calls a server's logic in the same process (tests, previews, a server that
/// syncs its own database); a network transport sends the same messages over HTTP. A transport throws
/// ``/BoutiqueDB/BoutiqueError/syncUnavailable(reason:)`` when no reply came; any other error it throws is
/// reported as that too.
public protocol SyncTransport: Sendable {
    /// Names the server's address, so that a database's progress with one server is kept apart from
    /// another's until a reply names the server itself (``SyncServerID``): the progress is kept under
    /// that name from then on, and this one points there.
    var serverIdentifier: String { get }
    /// Sends a ``PushRequest``.
    func push(_ request: PushRequest) async throws -> PushResponse
    /// Sends a ``PullRequest``.
    func pull(_ request: PullRequest) async throws -> PullResponse
    /// Sends a ``SnapshotRequest``.
    func snapshot(_ request: SnapshotRequest) async throws -> SnapshotResponse
    /// Sends a ``MembershipRequest`` (share, unshare, members).
    func membership(_ request: MembershipRequest, action: MembershipAction) async throws -> MembershipResponse
}

extension SyncTransport {
    /// Refuses: a transport that predates spaces carries no membership requests.
    public func membership(_ request: MembershipRequest, action: MembershipAction) async throws -> MembershipResponse {
        throw SyncRefusal(reason: .protocolMismatch, message: "this transport does not carry \(action.rawValue) requests")
    }
}

/// A transport to a server's logic in this process.
///
/// ```swift
/// let transport: InProcessTransport = .inProcess(server, tenant: "acme")
/// ```
public struct InProcessTransport: SyncTransport {
    /// The server.
    public let endpoint: any SyncEndpoint
    /// The tenant whose data the device syncs.
    public let tenant: String
    /// The user the pushes are made by, whose rights the server checks; `nil` for trusted code.
    public let user: String?

    /// A transport to `endpoint` for `tenant`, pushing as `user` (`nil`: trusted, unchecked).
    public init(endpoint: any SyncEndpoint, tenant: String, user: String? = nil) {
        self.endpoint = endpoint
        self.tenant = tenant
        self.user = user
    }

    /// Names the tenant of the in-process server.
    public var serverIdentifier: String { "in-process:\(tenant)" }

    /// Hands the request to the server.
    public func push(_ request: PushRequest) async throws -> PushResponse {
        try await endpoint.push(request, tenant: tenant, user: user)
    }
    /// Hands the request to the server.
    public func pull(_ request: PullRequest) async throws -> PullResponse { try await endpoint.pull(request, tenant: tenant, user: user) }
    /// Hands the request to the server.
    public func snapshot(_ request: SnapshotRequest) async throws -> SnapshotResponse {
        try await endpoint.snapshot(request, tenant: tenant, user: user)
    }
    /// Hands the request to the server, as the transport's user; trusted code (no user) changes
    /// members on the server itself (`SyncServer.setMember`).
    public func membership(_ request: MembershipRequest, action: MembershipAction) async throws -> MembershipResponse {
        guard let user else {
            throw SyncRefusal(reason: .forbidden, message: "a transport without a user cannot \(action.rawValue); name the user in .inProcess(server, user:)")
        }
        return try await endpoint.membership(request, action: action, tenant: tenant, user: user)
    }
}

extension SyncTransport where Self == InProcessTransport {
    /// A server's logic in this process, for `tenant`, pushing as `user` (`nil`: trusted code, whose
    /// pushes the server's authorization hook does not check).
    ///
    /// ```swift
    /// try await BoutiqueSync(database: db, tables: [Note.self], server: .inProcess(server))
    /// try await BoutiqueSync(database: db, tables: [Note.self], server: .inProcess(server, user: "ann"))
    /// ```
    public static func inProcess(_ server: any SyncEndpoint, tenant: String = "default", user: String? = nil) -> InProcessTransport {
        InProcessTransport(endpoint: server, tenant: tenant, user: user)
    }
}
