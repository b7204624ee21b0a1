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
    /// 16 MB by default.
    public var maximumBodyBytes: Int
    /// The longest a pull may wait for changes (a device asking for longer waits this long). 30 s by
    /// default.
    public var maximumWaitMilliseconds: Int
    /// The most connections open at once; more are refused until some close. 1,000 by default.
    ///
    /// Each takes a file descriptor: the server holds at most the process's soft limit on open files
    /// less 64 (kept for its store and logs) when this is higher. `boutique serve` raises that soft
    /// limit to the hard limit as it starts (``SyncHTTPServer/raiseOpenFileLimit()``).
    public var connectionLimit: Int
    /// The most connections open at once from one client address; more from it are refused, so that
    /// one address cannot take every connection. 64 by default.
    ///
    /// Behind a reverse proxy every connection comes from the proxy's address: set this to
    /// ``connectionLimit`` there, and cap addresses at the proxy.
    public var connectionsPerAddress: Int
    /// How long a client has to send a whole request — its head and its body — from the moment its
    /// connection opens (or, on a kept-alive connection, its request line arrives). A connection still
    /// sending when it runs out is closed: a client sending a byte now and then cannot hold it for
    /// ever. The handler's time (a long-polling pull's wait) does not count. 60 s by default: a full 16 MB body
    /// needs a client sending at least 280 KB/s.
    public var requestDeadline: Duration

    /// Limits for a server.
    public init(
        maximumBodyBytes: Int = 16 << 20, maximumWaitMilliseconds: Int = 30_000, connectionLimit: Int = 1_000,
        connectionsPerAddress: Int = 64, requestDeadline: Duration = .seconds(60)
    ) {
        self.maximumBodyBytes = maximumBodyBytes
        self.maximumWaitMilliseconds = maximumWaitMilliseconds
        self.connectionLimit = connectionLimit
        self.connectionsPerAddress = connectionsPerAddress
        self.requestDeadline = requestDeadline
    }
}
