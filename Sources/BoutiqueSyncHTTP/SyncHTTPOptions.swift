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
    /// The most connections open at once from one client address; more from it are refused. 1,000 by
    /// default: a thousand devices behind one NAT (one address to the server) can all wait on long
    /// polls. What stops one address from holding the server's connections without sending requests
    /// is ``unfinishedRequestsPerAddress``; this caps even connections whose requests are in.
    ///
    /// Behind a reverse proxy every connection comes from the proxy's address: set this to
    /// ``connectionLimit`` there (and ``unfinishedRequestsPerAddress`` to ``unfinishedRequestLimit``),
    /// and cap addresses at the proxy.
    public var connectionsPerAddress: Int
    /// How long a client has to send a whole request — its head and its body — from the moment its
    /// connection opens (or, on a kept-alive connection, its request line arrives). A connection still
    /// sending when it runs out is closed: a client sending a byte now and then cannot hold it for
    /// ever. The handler's time (a long-polling pull's wait) does not count. 60 s by default: a full 16 MB body
    /// needs a client sending at least 280 KB/s.
    public var requestDeadline: Duration
    /// How long a client has to read a whole answer from the moment it is ready. A connection whose
    /// client has not read it all when it runs out is closed, and the answer's memory freed: a client
    /// that asks and stops reading cannot hold it for ever. 60 s by default: a full page of changes
    /// (4 MB, `SyncServerLimits.maximumPageBytes`) needs a client reading at least 70 KB/s.
    public var responseDeadline: Duration
    /// The most connections open at once that have not sent a whole request — just opened, sending
    /// their request, or kept alive between requests. A connection whose request is in (a long poll
    /// waiting, which only an authenticated request becomes: any other is answered at once) or being
    /// answered does not count. 500 by default, and never more than half of ``connectionLimit``: the
    /// other half is there for requests being handled.
    ///
    /// A new connection past this takes the place of the oldest such connection of the address that
    /// holds the most (one unfinished for at least a second: a client sending its request in one go
    /// has sent it by then), which is closed; when none is that old, the new one is refused. So clients
    /// that send slowly, from however many addresses, keep some connections and never all of them, and a
    /// client that sends its request at once is served.
    public var unfinishedRequestLimit: Int
    /// The most connections from one client address that have not sent a whole request (see
    /// ``unfinishedRequestLimit``). A new one past this takes the place of that address's oldest
    /// (unfinished for at least a second), or is refused. 32 by default.
    public var unfinishedRequestsPerAddress: Int
    /// The most bytes of answers, summed over every connection, waiting to be read by their clients.
    /// An answer is held whole until its client has read it: a client that asks for a page of changes
    /// and stops reading holds the page until ``responseDeadline``. A pull's or snapshot's answer that
    /// would pass this is answered 503 with `Retry-After` instead (the device asks again; the request
    /// changed nothing); an answer of at most 64 KB, and one that says what a push or membership
    /// change did, is sent whatever the total. 128 MB by default.
    public var maximumQueuedResponseBytes: Int

    /// Limits for a server.
    public init(
        maximumBodyBytes: Int = 16 << 20, maximumWaitMilliseconds: Int = 30_000, connectionLimit: Int = 1_000,
        connectionsPerAddress: Int = 1_000, requestDeadline: Duration = .seconds(60), responseDeadline: Duration = .seconds(60),
        unfinishedRequestLimit: Int = 500, unfinishedRequestsPerAddress: Int = 32, maximumQueuedResponseBytes: Int = 128 << 20
    ) {
        self.maximumBodyBytes = maximumBodyBytes
        self.maximumWaitMilliseconds = maximumWaitMilliseconds
        self.connectionLimit = connectionLimit
        self.connectionsPerAddress = connectionsPerAddress
        self.requestDeadline = requestDeadline
        self.responseDeadline = responseDeadline
        self.unfinishedRequestLimit = unfinishedRequestLimit
        self.unfinishedRequestsPerAddress = unfinishedRequestsPerAddress
        self.maximumQueuedResponseBytes = maximumQueuedResponseBytes
    }
}
