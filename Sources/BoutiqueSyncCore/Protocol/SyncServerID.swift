/// What a server is, whatever address reaches it: the identity of its store (made once, when the store
/// was created, and kept in it) and the tenant the request was answered for.
///
/// Every reply of a server of this version carries it (``PushResponse/server``,
/// ``PullResponse/server``, ``SnapshotResponse/server``). A device keys its progress with a server by
/// it, so the same server reached through another spelling of its address (`localhost` for
/// `127.0.0.1`, a trailing slash, a new host name or port) or with another kind of credentials is
/// still the server the device synced with, and a different store behind a known address is a new
/// server.
///
/// ```json
/// "server": {"store": "6f1c2b9e-…", "tenant": "acme"}
/// ```
public struct SyncServerID: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The store's identity: a random id made when the store was created.
    public var store: String
    /// The tenant the reply was made for: the requesting token's.
    public var tenant: String

    /// A server's identity.
    public init(store: String, tenant: String) {
        self.store = store
        self.tenant = tenant
    }

    /// The key a device keeps its progress with this server under.
    public var key: String { "store:\(store)#\(tenant)" }

    public var description: String { "store \(store), tenant \(tenant)" }
}

/// A reply that says which server made it.
public protocol SyncServerIdentified: Sendable {
    /// The server that answered; `nil` from servers that predate identities.
    var server: SyncServerID? { get set }
}
