import BoutiqueSQLite
import Foundation

/// A ``/BoutiqueSyncServer/SyncServer`` on the network: the sync protocol over HTTP/1.1 (GNU libmicrohttpd), with bearer
/// tokens.
///
/// ```swift
/// let store = try await SQLiteSyncStore.open(url: URL(fileURLWithPath: "sync.db"))
/// let signer = try SyncTokenSigner(secretFile: URL(fileURLWithPath: "secret"))
/// let http = try SyncHTTPServer(server: SyncServer(store: store), signer: signer, port: 8080)
/// print("listening on \(http.url)")
/// // …
/// await http.shutdown()
/// ```
///
/// Devices connect with `.http(url, token:)`. The tenant of every request is the one its verified
/// token names (``/BoutiqueSyncServer/SyncTokenSigner``). Plain HTTP unless it is given a certificate
/// and key (``SyncHTTPTLS``): then it speaks HTTPS alone (TLS 1.2 and 1.3), and ``url`` is `https://`.
/// Without one, put TLS in front of it (a reverse proxy) for anything but a local network.
///
/// | Request | Answer |
/// |---|---|
/// | `POST /v1/push` (a ``/BoutiqueSync/PushRequest``) | 200 ``/BoutiqueSync/PushResponse``; 409 the same when the watermark or digest is not the device's history |
/// | `POST /v1/pull` (a ``/BoutiqueSync/PullRequest``) | 200 ``/BoutiqueSync/PullResponse``; 410 the same when the device must bootstrap again |
/// | `POST /v1/snapshot` (a ``/BoutiqueSync/SnapshotRequest``) | 200 ``/BoutiqueSync/SnapshotResponse`` |
/// | `GET /v1/attachments/ID?size=N` | 200 ``/BoutiqueSync/AttachmentUploadState``: what the server holds of an upload |
/// | `PUT /v1/attachments/ID?size=N&offset=O` (a piece: the bytes from O) | 200 ``/BoutiqueSync/AttachmentUploadState``; 409 when the upload stands elsewhere |
/// | `GET /v1/attachments/ID/bytes?offset=O&length=L` | 200 the bytes from O (at most L, at most 8 MiB); 404 not uploaded, 416 O past the end |
/// | `GET /v1/health` | 200 `{"status":"ok","protocolVersion":1}`, no token needed |
/// | `GET /healthz` | 200 `{"status":"ok"}` while the process serves, no token needed |
/// | `GET /readyz` | 200 `{"status":"ready"}` when the store answers a read (one at a time, shared by the probes that come meanwhile and reused for a second); 503 with a `reason` when it does not, or while draining (``beginDraining()``) |
///
/// Attachments are served when the server is given a ``/BoutiqueSyncServer/SyncAttachmentStore`` (`attachments:`),
/// per tenant; an upload is sent in pieces, each at the offset the server holds, and resumes from
/// there after a lost connection or a restart (see ``/BoutiqueSyncServer/FolderAttachmentStore``).
///
/// `/v1/tenants/NAME/push` (and `pull`, `snapshot`) are the same requests naming their tenant, which
/// must be the token's (403 otherwise). Every other refusal is a ``/BoutiqueSync/SyncHTTPErrorBody``: 400 malformed
/// body or request, 401 missing, forged or expired token, 403 another tenant or a change the user may
/// not make, 404, 405, 413 too large, 426 protocol or app schema too old, 501 a transfer coding other
/// than chunked, 503 the store failed (retry). A request whose head frames its body ambiguously (two
/// `Content-Length` headers, one with `Transfer-Encoding`, a length that is not a number) is answered
/// 400 and its connection closed. Every response has an `X-Request-Id` header; a 503's reason names that
/// id instead of the store's error, which goes to the ``SyncRequestLog`` with it.
public final class SyncHTTPServer: Sendable {
    /// The server's logic.
    public let server: SyncServer
    /// The port it listens on (the one picked when it was started with port 0).
    public var port: Int { listener.port }
    /// The address devices reach it at: `https://` when it serves TLS.
    public let url: URL
    /// The IPv4 address it listens on.
    public let host: String

    private let listener: HTTPListener
    private let draining = DrainingFlag()
    private let metrics = SyncMetrics()
    private let metricsListener = Lock(MetricsListener.notServed)

    /// Where the metrics listener is: taken under one lock from ``serveMetrics(port:)`` to
    /// ``shutdown(gracePeriod:)``, so that two calls cannot both start one, and none starts one that
    /// shutdown would not stop.
    private enum MetricsListener {
        case notServed
        case starting
        case serving(HTTPListener)
        case stopped
    }

    /// Starts serving `server` on `host:port`; port 0 picks a free one (read ``port``). With a `log`,
    /// every request, authentication failure and store failure is written to it.
    ///
    /// Each connection takes a file descriptor: it serves at most the process's soft limit on open
    /// files less 64 connections (see ``SyncHTTPOptions/connectionLimit`` and
    /// ``raiseOpenFileLimit()``). With `tls`, it serves HTTPS only.
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/syncUnavailable(reason:)`` when the address cannot be bound,
    ///   or ``/BoutiqueDB/BoutiqueError/invalidArgument(_:)`` when `tls` is refused (see ``SyncHTTPTLS``)
    ///   or libmicrohttpd was built without TLS.
    public convenience init(
        server: SyncServer, signer: SyncTokenSigner, host: String = "127.0.0.1", port: Int = 0,
        options: SyncHTTPOptions = SyncHTTPOptions(), tls: SyncHTTPTLS? = nil, log: SyncRequestLog? = nil,
        attachments: (any SyncAttachmentStore)? = nil
    ) throws {
        try self.init(
            server: server, authentication: try SyncAuthentication(signer: signer), host: host, port: port, options: options, tls: tls,
            log: log, attachments: attachments)
    }

    /// Starts serving `server` on `host:port`, taking the tokens `authentication` checks: the
    /// server's own, JSON Web Tokens from an identity provider, or both.
    ///
    /// ```swift
    /// let jwt = try await JWTVerifier.fetchingKeys(
    ///     from: URL(string: "https://example.eu.auth0.com/.well-known/jwks.json")!,
    ///     rules: JWTClaimRules(tenantClaim: "https://example.com/tenant"))
    /// let http = try SyncHTTPServer(server: server, authentication: try SyncAuthentication(jwt: jwt), port: 8080)
    /// ```
    ///
    /// With `tls`, it serves HTTPS only (TLS 1.2 and 1.3); its metrics (``serveMetrics(port:)``) stay
    /// plain HTTP on 127.0.0.1.
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/syncUnavailable(reason:)`` when the address cannot be bound,
    ///   or ``/BoutiqueDB/BoutiqueError/invalidArgument(_:)`` when `tls` is refused (see ``SyncHTTPTLS``)
    ///   or libmicrohttpd was built without TLS.
    public init(
        server: SyncServer, authentication: SyncAuthentication, host: String = "127.0.0.1", port: Int = 0,
        options: SyncHTTPOptions = SyncHTTPOptions(), tls: SyncHTTPTLS? = nil, log: SyncRequestLog? = nil,
        attachments: (any SyncAttachmentStore)? = nil
    ) throws {
        self.server = server
        self.host = host
        let routes = SyncHTTPRoutes(
            server: server, authentication: authentication, draining: draining, readiness: ReadinessRead(store: server.store),
            options: options, log: log, metrics: metrics, attachments: attachments)
        listener = try HTTPListener.start(
            host: host, port: port,
            limits: HTTPListener.Limits(
                maximumBodyBytes: options.maximumBodyBytes, connectionLimit: options.connectionLimit,
                connectionsPerAddress: options.connectionsPerAddress, requestDeadline: options.requestDeadline,
                responseDeadline: options.responseDeadline, unfinishedRequestLimit: options.unfinishedRequestLimit,
                unfinishedRequestsPerAddress: options.unfinishedRequestsPerAddress,
                maximumQueuedResponseBytes: options.maximumQueuedResponseBytes),
            tls: tls, log: log, handler: { request in await routes.respond(to: request) })
        // `host` parsed as an IPv4 address, so the URL is well formed.
        url = URL(string: "\(tls == nil ? "http" : "https")://\(host):\(listener.port)") ?? URL(fileURLWithPath: "/")
    }

    /// Raises the process's soft limit on open files to its hard limit, and returns the limit now in
    /// force (`nil` when it cannot be read). Many systems start a process with a soft limit of 1,024,
    /// under a far higher hard limit: a server process calls this once as it starts, before making its
    /// ``SyncHTTPServer``, so that its ``SyncHTTPOptions/connectionLimit`` is not cut to fit 1,024 files.
    /// (`boutique serve` does.) It is not done for you: the limit is the whole process's, and a process
    /// that starts child processes through Foundation's `Process` may want it low, as `Process.run()`
    /// on Linux reads past its buffer once some 1,400 descriptors are open.
    ///
    /// ```swift
    /// SyncHTTPServer.raiseOpenFileLimit()
    /// let http = try SyncHTTPServer(server: server, signer: signer, port: 8080)
    /// ```
    @discardableResult
    public static func raiseOpenFileLimit() -> Int? { FileDescriptorLimit.raise() }

    /// How many requests are being read, handled or answered now.
    public var requestsInFlight: Int { listener.requestsInFlight }

    /// Makes `GET /readyz` answer 503 from now on, while every other request is served as before: a
    /// load balancer or Kubernetes stops sending devices here before ``shutdown(gracePeriod:)``.
    ///
    /// ```swift
    /// http.beginDraining()
    /// try await Task.sleep(for: .seconds(5))   // the balancer's probe interval
    /// await http.shutdown()
    /// ```
    public func beginDraining() { draining.set() }

    /// Whether ``beginDraining()`` or ``shutdown(gracePeriod:)`` was called.
    public var isDraining: Bool { draining.isSet }

    /// Stops accepting connections, answers waiting long polls, lets the requests in flight finish
    /// (for up to `gracePeriod`), then closes every connection. `/readyz` answers 503 meanwhile.
    ///
    /// ```swift
    /// await http.shutdown()
    /// ```
    public func shutdown(gracePeriod: Duration = .seconds(10)) async {
        draining.set()
        let serving: HTTPListener? = metricsListener.withLock { state in
            defer { state = .stopped }
            guard case .serving(let listener) = state else { return nil }
            return listener
        }
        if let serving { await serving.shutdown(gracePeriod: .seconds(1)) }
        // First, so that the long polls answered next close their connections instead of keeping
        // them alive for a next request this server will not serve.
        listener.stopAccepting()
        await server.endLongPolls()
        await listener.shutdown(gracePeriod: gracePeriod)
    }

    // MARK: Metrics

    /// Serves the server's metrics in Prometheus' text exposition format at
    /// `http://127.0.0.1:PORT/metrics`, on a listener of its own bound to 127.0.0.1 only (port 0 picks
    /// a free one), and returns that address. ``shutdown(gracePeriod:)`` stops it too.
    ///
    /// ```swift
    /// let metricsURL = try http.serveMetrics(port: 9464)
    /// ```
    ///
    /// | Metric | Kind | Labels |
    /// |---|---|---|
    /// | `boutique_http_requests_total` | counter | `endpoint`, `status` |
    /// | `boutique_http_request_duration_seconds` | histogram | `endpoint` |
    /// | `boutique_pushed_changes_total` | counter | |
    /// | `boutique_pulled_changes_total` | counter | |
    /// | `boutique_refusals_total` | counter | `reason`: the error body's code (`unauthorized`, `forbidden`, …) |
    /// | `boutique_long_polls_waiting` | gauge | |
    /// | `boutique_connections_open` | gauge | |
    /// | `boutique_tenants_active` | gauge: tenants with a request in the last 10 minutes (at most 100,000 are kept) | |
    /// | `boutique_store_errors_total` | counter | |
    /// | `boutique_log_entries` | gauge: read from the store at most once a minute (``/BoutiqueSyncServer/SyncStore/logEntryCount()``; a ``/BoutiqueSyncServer/SQLiteTenantFilesStore`` counts the tenants written since it opened, every tenant after housekeeping's first round) | |
    /// | `boutique_gc_removed_total` | counter: what ``recordHousekeeping(_:)`` was told | `kind` (`log`, `tombstones`) |
    ///
    /// `endpoint` is `push`, `pull`, `snapshot`, `share`, `unshare`, `members`, `health`, `healthz`,
    /// `readyz` or `other`. No label holds a tenant, user or token. The counters are always kept (a
    /// lock and a few additions per request); this only makes them readable.
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/syncUnavailable(reason:)`` when the port cannot be bound,
    ///   or ``/BoutiqueDB/BoutiqueError/invalidArgument(_:)`` when metrics are already served (or
    ///   being started by another call), or after ``shutdown(gracePeriod:)`` began.
    @discardableResult
    public func serveMetrics(port: Int) throws -> URL {
        let refusal: String? = metricsListener.withLock { state in
            switch state {
            case .notServed:
                state = .starting
                return nil
            case .starting, .serving: return "the metrics are already served"
            case .stopped: return "the server is shutting down"
            }
        }
        if let refusal { throw BoutiqueError.invalidArgument(refusal) }
        let limits = HTTPListener.Limits(
            maximumBodyBytes: 1_024, connectionLimit: 16, connectionsPerAddress: 16, requestDeadline: .seconds(10),
            responseDeadline: .seconds(10), unfinishedRequestLimit: 8, unfinishedRequestsPerAddress: 8,
            maximumQueuedResponseBytes: 16 << 20)
        let listener: HTTPListener
        do {
            listener = try HTTPListener.start(host: "127.0.0.1", port: port, limits: limits, log: nil) { [weak self] request in
                guard request.path == "/metrics" else {
                    return .error(404, "not-found", "the metrics are at /metrics")
                }
                guard let self else { return .error(503, "unavailable", "the server is stopping") }
                return HTTPResponse(status: 200, body: Array(await self.metricsText().utf8), contentType: "text/plain; version=0.0.4; charset=utf-8")
            }
        } catch {
            metricsListener.withLock { state in if case .starting = state { state = .notServed } }
            throw error
        }
        // A shutdown that came meanwhile found no listener to stop: this one is dropped, which stops it.
        let kept = metricsListener.withLock { state -> Bool in
            guard case .starting = state else { return false }
            state = .serving(listener)
            return true
        }
        guard kept else { throw BoutiqueError.invalidArgument("the server is shutting down") }
        return URL(string: "http://127.0.0.1:\(listener.port)/metrics") ?? URL(fileURLWithPath: "/")
    }

    /// The metrics ``serveMetrics(port:)`` serves, as text.
    ///
    /// ```swift
    /// print(await http.metricsText())
    /// ```
    public func metricsText() async -> String {
        let server = self.server
        let logEntries = await metrics.logEntryCount { try await server.logEntryCount() }
        return metrics.exposition(connectionsOpen: listener.connectionsOpen, logEntries: logEntries)
    }

    /// Counts what a ``/BoutiqueSyncServer/SyncHousekeeping`` event says garbage collection removed,
    /// for `boutique_gc_removed_total`; other events are not counted.
    ///
    /// ```swift
    /// let housekeeping = SyncHousekeeping(server: server) { event in http.recordHousekeeping(event) }
    /// ```
    public func recordHousekeeping(_ event: SyncHousekeeping.Event) {
        guard case .collected(_, let previousHorizon, let report) = event else { return }
        metrics.collected(logEntries: Int(max(0, report.horizon - previousHorizon)), tombstones: report.tombstonesRemoved)
    }
}
