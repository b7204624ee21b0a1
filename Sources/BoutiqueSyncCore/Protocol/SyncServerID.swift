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
/// "server": {"store": "6f1c2b9e-…", "tenant": "acme", "history": "0b7d…"}
/// ```
///
/// A store restored from a backup keeps its identity (devices go on with it) but not its
/// ``history``: the positions of its log past the backup hold other changes than those devices pulled
/// there, so a device that finds another history than the one it pulled from takes the server's
/// state again instead of pulling on from its cursor.
public struct SyncServerID: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The store's identity: a random id made when the store was created.
    public var store: String
    /// The tenant the reply was made for: the requesting token's.
    public var tenant: String
    /// Which history of the store's log the reply comes from: the same as long as the log only grows,
    /// another once the store was copied by `boutique backup` or restored from a dump (the positions
    /// past the copy then hold other changes). `nil` from servers that predate it.
    ///
    /// It is not part of ``key``: progress stays with the same server, but positions in its log that
    /// a device kept under another history are not this one's.
    public var history: String?

    /// A server's identity.
    public init(store: String, tenant: String, history: String? = nil) {
        self.store = store
        self.tenant = tenant
        self.history = history
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
