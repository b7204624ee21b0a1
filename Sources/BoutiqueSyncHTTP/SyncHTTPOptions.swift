/// Limits of a ``SyncHTTPServer``.
///
/// ```swift
/// let http = try SyncHTTPServer(server: server, signer: signer, port: 8080,
///                               options: SyncHTTPOptions(maximumBodyBytes: 8 << 20))
/// ```
public struct SyncHTTPOptions: Hashable, Sendable {
    /// The largest request body accepted; a larger one is answered 413 and nothing is stored (one of
    /// no declared length that runs more than a megabyte over it has its connection closed instead).
    /// Devices split their pushes by `SyncOptions.pushRowLimit` rows; keep that many rows below it.
    public var maximumBodyBytes: Int
    /// The longest a pull may wait for changes (a device asking for longer waits this long).
    public var maximumWaitMilliseconds: Int
    /// The most connections open at once; more are refused until some close.
    public var connectionLimit: Int

    /// Limits for a server.
    public init(maximumBodyBytes: Int = 16 << 20, maximumWaitMilliseconds: Int = 30_000, connectionLimit: Int = 1_000) {
        self.maximumBodyBytes = maximumBodyBytes
        self.maximumWaitMilliseconds = maximumWaitMilliseconds
        self.connectionLimit = connectionLimit
    }
}
