import BoutiqueSQLite
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport to a sync server over HTTP (libcurl on Linux, `URLSession` elsewhere), authenticated
/// with a bearer token. On Linux a redirect is not followed (its status is refused): give the
/// server's own URL.
///
/// ```swift
/// let server: HTTPSyncTransport = .http(URL(string: "https://sync.example.com")!, token: token)
/// let sync = try await BoutiqueSync(database: db, tables: [Note.self], server: server)
/// ```
///
/// A request that gets no answer, or a 5xx, 408 or 429 one, is sent again after a jittered,
/// growing delay (``RetryPolicy``), which is safe: the server recognises a push it already applied. When
/// the tries run out the call throws ``/BoutiqueDB/BoutiqueError/syncUnavailable(reason:)`` (the device is offline
/// or the server down: ``BoutiqueSync/status`` says so, and a started sync tries again later). A refusal
/// (400, 401, 403, 413, 426) throws a ``SyncRefusal`` whose ``SyncRefusal/reason`` tells them apart, with
/// the server's message. Made with ``SyncTransport/http(_:credentials:)``, a 401 first asks the app for a
/// new token and sends the request once more with it.
///
/// An `https://` server is trusted when a system authority vouches for its certificate, or, with a
/// ``SyncServerTrust`` of your own, when your private authority does. A certificate that is not
/// trusted ends the request at once (no retries) with a `syncUnavailable` error that says so.
public struct HTTPSyncTransport: SyncTransport {
    /// How often and how patiently a request is sent again.
    public struct RetryPolicy: Hashable, Sendable {
        /// Tries in all, the first included.
        public var attempts: Int
        /// The delay before the first retry; each later one may be up to twice the previous.
        public var initialDelay: Duration
        /// The longest delay between two tries.
        public var maximumDelay: Duration

        /// A policy; the defaults try four times within about three seconds.
        public init(attempts: Int = 4, initialDelay: Duration = .milliseconds(200), maximumDelay: Duration = .seconds(2)) {
            self.attempts = max(1, attempts)
            self.initialDelay = initialDelay
            self.maximumDelay = maximumDelay
        }
    }

    /// The server's base address (`http://host:port`).
    public let url: URL
    /// The device's bearer token: the fixed one it was made with, or the latest the app handed out
    /// (empty before the first request asked for one).
    public var token: String { credentials.known ?? "" }
    private let credentials: SyncCredentials
    /// How requests are retried.
    public let retry: RetryPolicy
    /// How long a request may take beyond a pull's wait before it counts as unanswered.
    public let timeout: Duration
    /// Which authorities vouch for an `https://` server's certificate.
    public let trust: SyncServerTrust
    /// The bytes this transport (and its copies) sent and received so far, bodies only.
    public let traffic = Traffic()
    private let session: URLSession
    #if canImport(Security)
    /// Evaluates the server's certificate when ``trust`` names authorities of its own.
    private let anchoredTrust: AnchoredServerTrust?
    #endif
    #if os(Linux)
    /// The libcurl handles requests go through, each keeping its connection open for the
    /// next request: shared by the transport's copies, closed when the last one goes.
    let libcurlHandles = LibcurlHandles()
    #endif

    /// Bytes sent and received, for progress displays.
    ///
    /// ```swift
    /// print(transport.traffic.sent, transport.traffic.received)
    /// ```
    public final class Traffic: Sendable {
        private let counts = Lock((sent: 0, received: 0))
        /// Request body bytes sent (retries included).
        public var sent: Int { counts.withLock { $0.sent } }
        /// Response body bytes received.
        public var received: Int { counts.withLock { $0.received } }

        func add(sent: Int = 0, received: Int = 0) {
            counts.withLock {
                $0.sent += sent
                $0.received += received
            }
        }
    }

    /// A transport to the server at `url`, authenticated with `token` (made by the server's
    /// `boutique token` or `SyncTokenSigner`), trusting `trust`'s authorities for an `https://` URL.
    ///
    /// ```swift
    /// let transport = HTTPSyncTransport(url: url, token: token, trust: try .certificateAuthority(file: caFile))
    /// ```
    public init(
        url: URL, token: String, trust: SyncServerTrust = .system, retry: RetryPolicy = RetryPolicy(), timeout: Duration = .seconds(30)
    ) {
        self.init(url: url, credentials: SyncCredentials(token: token), trust: trust, retry: retry, timeout: timeout)
    }

    /// A transport to the server at `url` whose tokens come from `credentials`: called with `nil` for
    /// the first token, and with the rejected one when the server answers 401 (an expired token), after
    /// which the request is sent once more with the new token.
    ///
    /// ```swift
    /// let transport = HTTPSyncTransport(url: url, credentials: { rejected in try await auth.syncToken() })
    /// ```
    ///
    /// Such a transport is known by its URL alone (``serverIdentifier``): keep one tenant per URL.
    public init(
        url: URL, trust: SyncServerTrust = .system, credentials: @escaping @Sendable (_ rejected: String?) async throws -> String,
        retry: RetryPolicy = RetryPolicy(), timeout: Duration = .seconds(30)
    ) {
        self.init(url: url, credentials: SyncCredentials(provider: credentials), trust: trust, retry: retry, timeout: timeout)
    }

    private init(url: URL, credentials: SyncCredentials, trust: SyncServerTrust, retry: RetryPolicy, timeout: Duration) {
        self.url = url
        self.credentials = credentials
        self.trust = trust
        self.retry = retry
        self.timeout = timeout
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        #if canImport(Security)
        anchoredTrust = trust.isSystem ? nil : AnchoredServerTrust(trust)
        session = URLSession(configuration: configuration, delegate: anchoredTrust, delegateQueue: nil)
        #else
        session = URLSession(configuration: configuration)
        #endif
    }

    /// The server's address and the fixed token's tenant: progress with one tenant is kept apart from
    /// another's. A transport whose tokens the app hands out is known by its address alone.
    public var serverIdentifier: String {
        guard !credentials.isRenewable else { return url.absoluteString }
        let tenant = SyncToken.unverifiedClaims(of: token)?.tenant ?? "unknown tenant"
        return "\(url.absoluteString)#\(tenant)"
    }

    /// Sends the push; a 409 carries the server's watermark, as ``PushResponse/Outcome/mismatch``.
    public func push(_ request: PushRequest) async throws -> PushResponse {
        do {
            return try await send(request, to: "v1/push", answers: [200, 409], wait: .zero)
        } catch let refusal as SyncRefusal where refusal.reason == .replicaTaken {
            // As the server in process answers it: the device takes a new replica id.
            return PushResponse(
                outcome: .forbidden, appliedThrough: 0, digest: nil, reason: refusal.message, refusal: .replicaTaken,
                serverTime: HybridTimestamp(rawValue: 0))
        }
    }

    /// Sends the pull, waiting as long as it asks; a 410 is ``PullResponse/Outcome/resetRequired``.
    public func pull(_ request: PullRequest) async throws -> PullResponse {
        do {
            return try await send(request, to: "v1/pull", answers: [200, 410], wait: .milliseconds(max(0, request.waitMilliseconds)))
        } catch let refusal as SyncRefusal where refusal.reason == .replicaTaken {
            return PullResponse(
                outcome: .refused, changes: [], nextCursor: request.cursor, hasMore: false, reason: refusal.message, refusal: .replicaTaken,
                serverTime: HybridTimestamp(rawValue: 0))
        }
    }

    /// Asks for a snapshot page, its rows packed (``PackedSnapshotRows``: a tenth of the bytes of their
    /// JSON, and read in a fraction of the time); a server that predates packed rows sends them as
    /// JSON, which is read as well.
    public func snapshot(_ request: SnapshotRequest) async throws -> SnapshotResponse {
        var request = request
        request.packsRows = true
        var response: SnapshotResponse = try await send(request, to: "v1/snapshot", answers: [200], wait: .zero)
        try response.unpackRows()
        return response
    }

    /// Sends a share, unshare or members request; a refusal (403 for a user who may not) is thrown as a
    /// ``SyncRefusal`` with the server's reason.
    public func membership(_ request: MembershipRequest, action: MembershipAction) async throws -> MembershipResponse {
        try await send(request, to: "v1/\(action.rawValue)", answers: [200], wait: .zero)
    }

    // MARK: Sending

    private func send<Request: Encodable, Response: Decodable>(
        _ message: Request, to path: String, answers: Set<Int>, wait: Duration
    ) async throws -> Response {
        var request = URLRequest(url: url.appendingPathComponent(path))
        request.httpMethod = "POST"
        request.httpBody = try SyncJSON.encoder().encode(message)
        request.setValue(SyncJSON.contentType, forHTTPHeaderField: "Content-Type")
        request.setValue(SyncJSON.contentType, forHTTPHeaderField: "Accept")
        request.timeoutInterval = Self.seconds(wait + timeout)
        let (data, status) = try await send(request, path: path, answers: answers)
        do {
            return try SyncJSON.decoder().decode(Response.self, from: data)
        } catch {
            throw BoutiqueError.syncRefused(reason: "the server's \(status) reply to \(path) is not a \(Response.self): \(error)")
        }
    }

    /// Sends `method` to `path?query` with `body` (bytes as they are), retried as every request is, and
    /// returns the answer's body and status once it is one of `answers`.
    func sendBytes(
        _ method: String, to path: String, query: String, body: Data? = nil, answers: Set<Int>
    ) async throws -> (Data, Int) {
        guard let target = URL(string: url.appendingPathComponent(path).absoluteString + "?" + query) else {
            throw BoutiqueError.invalidArgument("cannot make a URL of \(url.absoluteString), \(path) and \(query)")
        }
        var request = URLRequest(url: target)
        request.httpMethod = method
        request.httpBody = body
        if body != nil { request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type") }
        request.timeoutInterval = Self.seconds(timeout)
        return try await send(request, path: path, answers: answers)
    }

    /// Sends `request` until it gets one of `answers` (its body and status), a refusal, or the tries
    /// run out.
    private func send(_ request: URLRequest, path: String, answers: Set<Int>) async throws -> (Data, Int) {
        var request = request
        var delay = retry.initialDelay
        var attempt = 1
        var token = try await credentials.token()
        var renewed = false
        while true {
            let failure: String
            do {
                try Self.requireHeaderSafe(token)
                request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
                traffic.add(sent: request.httpBody?.count ?? 0)
                let (data, status) = try await exchange(request)
                traffic.add(received: data.count)
                if answers.contains(status) { return (data, status) }
                let error = (try? SyncJSON.decoder().decode(SyncHTTPErrorBody.self, from: data))?.error
                let reason = error?.reason ?? String(decoding: data.prefix(300), as: UTF8.self)
                if status == 401, !renewed, let fresh = try await credentials.renew(rejected: token) {
                    token = fresh
                    renewed = true
                    continue
                }
                // A push the server's rules cannot place: waiting a few seconds changes nothing, so
                // it is not retried here; the engine pulls meanwhile and pushes again later.
                let refusal = SyncRefusal.Reason(httpStatus: status, code: error?.code)
                guard Self.isTransient(status), refusal != .rulesMismatch else {
                    throw SyncRefusal(reason: refusal, message: "the server answered \(status) to \(path): \(reason)")
                }
                failure = "the server answered \(status) to \(path): \(reason)"
            } catch let error as BoutiqueError {
                throw error
            } catch let error as SyncRefusal {
                throw error
            } catch {
                if Task.isCancelled { throw CancellationError() }
                failure = "no answer from \(url.absoluteString) to \(path): \(error.localizedDescription)"
            }
            guard attempt < retry.attempts else { throw BoutiqueError.syncUnavailable(reason: failure) }
            attempt += 1
            // Full jitter: devices that lost the server together do not come back together.
            let ceiling = min(delay, retry.maximumDelay)
            try await Task.sleep(for: ceiling * Double.random(in: 0.5...1))
            delay = min(delay * 2, retry.maximumDelay)
        }
    }

    /// Refuses a token that would not stay one header value: a line break in it would start another
    /// header (or end the request's headers) on the wire.
    private static func requireHeaderSafe(_ token: String) throws {
        guard token.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return }
        throw BoutiqueError.invalidArgument("the sync token holds a control character (a line break, say), which an HTTP header cannot carry")
    }

    /// Sends one request: the answer's body and status. A server certificate that is not trusted is
    /// thrown as `syncUnavailable` (which ``send`` does not retry); other failures as they come.
    private func exchange(_ request: URLRequest) async throws -> (Data, Int) {
        #if !os(Linux) && !canImport(Security)
        // No way here to make given authorities the only ones trusted: refused rather than ignored.
        if !trust.isSystem, url.scheme?.lowercased() == "https" {
            throw BoutiqueError.syncUnavailable(reason: "a private certificate authority (\(trust)) is not supported on this platform")
        }
        #endif
        #if os(Linux)
        // Every request goes through libcurl itself. FoundationNetworking's URLSession is libcurl
        // underneath too, but it cannot trust a private authority for one session, and it passes each
        // answer through buffers of its own: a 4 MiB range of an attachment took 13 to 15 ms with it
        // where the same libcurl took 9 (release build, 127.0.0.1). Where libcurl cannot be loaded,
        // an `http://` request still goes through URLSession.
        let isHTTPS = url.scheme?.lowercased() == "https"
        do {
            return try await LibcurlExchange.send(request, trust: trust, handles: libcurlHandles)
        } catch LibcurlExchange.Failure.untrusted(let detail) {
            throw untrusted(detail)
        } catch LibcurlExchange.Failure.unavailable(let detail) where isHTTPS {
            throw BoutiqueError.syncUnavailable(reason: "cannot send https requests: \(detail)")
        } catch LibcurlExchange.Failure.unavailable {
            // Sent below, through URLSession.
        } catch LibcurlExchange.Failure.noAnswer(let detail) {
            throw URLError(.cannotConnectToHost, userInfo: [NSLocalizedDescriptionKey: detail])
        }
        #endif
        do {
            let (data, reply) = try await session.data(for: request)
            return (data, (reply as? HTTPURLResponse)?.statusCode ?? 0)
        } catch let error as URLError {
            #if canImport(Security)
            if error.code == .cancelled, !Task.isCancelled, let refusal = anchoredTrust?.refusal { throw untrusted(refusal) }
            #endif
            if Self.untrustedCodes.contains(error.code) { throw untrusted(error.localizedDescription) }
            throw error
        }
    }

    /// The errors of a server certificate the system does not trust, which another try does not change.
    private static let untrustedCodes: Set<URLError.Code> = [
        .serverCertificateUntrusted, .serverCertificateHasUnknownRoot, .serverCertificateHasBadDate, .serverCertificateNotYetValid,
    ]

    private func untrusted(_ detail: String) -> BoutiqueError {
        let remedy =
            trust.isSystem
            ? "a server whose certificate a private authority signed needs that authority's certificate (SyncServerTrust.certificateAuthority(file:); boutique sync --ca-file FILE)"
            : "it must be signed by the given certificate authority (\(trust)) and name the URL's host"
        return BoutiqueError.syncUnavailable(reason: "the certificate of \(url.absoluteString) is not trusted: \(detail); \(remedy)")
    }

    private static func isTransient(_ status: Int) -> Bool {
        status == 0 || status == 408 || status == 429 || status >= 500
    }

    private static func seconds(_ duration: Duration) -> TimeInterval {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

extension SyncTransport where Self == HTTPSyncTransport {
    /// A sync server over HTTP at `url`, authenticated with `token`.
    ///
    /// ```swift
    /// let sync = try await BoutiqueSync(database: db, tables: [Note.self],
    ///                                   server: .http(URL(string: "http://127.0.0.1:8080")!, token: token))
    /// ```
    public static func http(_ url: URL, token: String) -> HTTPSyncTransport {
        HTTPSyncTransport(url: url, token: token)
    }

    /// A sync server over HTTPS at `url`, authenticated with `token`, whose certificate one of
    /// `trust`'s authorities signed: a private authority of your own, say.
    ///
    /// ```swift
    /// let authority = Bundle.main.url(forResource: "sync-ca", withExtension: "pem")!
    /// let sync = try await BoutiqueSync(database: db, tables: [Note.self],
    ///                                   server: .http(URL(string: "https://sync.internal:8443")!, token: token,
    ///                                                 trust: try .certificateAuthority(file: authority)))
    /// ```
    public static func http(_ url: URL, token: String, trust: SyncServerTrust) -> HTTPSyncTransport {
        HTTPSyncTransport(url: url, token: token, trust: trust)
    }

    /// A sync server over HTTP at `url`, with tokens the app hands out: `credentials` is asked for the
    /// first one (`nil`), and for a new one when the server answers 401 to the last (then the request is
    /// sent once more).
    ///
    /// ```swift
    /// let sync = try await BoutiqueSync(database: db, tables: [Note.self],
    ///                                   server: .http(url, credentials: { _ in try await account.syncToken() }))
    /// ```
    public static func http(
        _ url: URL, credentials: @escaping @Sendable (_ rejected: String?) async throws -> String
    ) -> HTTPSyncTransport {
        HTTPSyncTransport(url: url, credentials: credentials)
    }

    /// A sync server over HTTPS at `url` whose certificate one of `trust`'s authorities signed, with
    /// tokens the app hands out (see ``http(_:credentials:)``).
    ///
    /// ```swift
    /// let server: HTTPSyncTransport = .http(url, trust: try .certificateAuthority(file: authority),
    ///                                       credentials: { _ in try await account.syncToken() })
    /// ```
    public static func http(
        _ url: URL, trust: SyncServerTrust, credentials: @escaping @Sendable (_ rejected: String?) async throws -> String
    ) -> HTTPSyncTransport {
        HTTPSyncTransport(url: url, trust: trust, credentials: credentials)
    }
}
