// The HTTP front end is part of the package where GNU libmicrohttpd is installed; so are its tests.
#if BOUTIQUE_SYNC_HTTP
import BoutiqueSync
import BoutiqueSyncHTTP
import BoutiqueSyncServer
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A sync server on 127.0.0.1 (a free port) with an in-memory store, and tokens for it.
struct HTTPTestServer {
    /// A secret for tests that make a server of their own (``HTTPTestServer`` has one per instance).
    static let secret = Array("a test secret of at least sixteen bytes".utf8)

    let store: SQLiteSyncStore
    let server: SyncServer
    let http: SyncHTTPServer
    let signer: SyncTokenSigner
    /// The secret the server's tokens are signed with: its own, so that a device of another test,
    /// left pointing at a port this server was later given, is refused rather than let in.
    let secret: [UInt8]

    init(
        rules: SyncRules? = nil, authorize: SyncAuthorizer? = nil, minimumSchemaVersion: Int = 0, options: SyncHTTPOptions = SyncHTTPOptions(),
        log: SyncRequestLog? = nil, attachments: (any SyncAttachmentStore)? = nil
    ) async throws {
        store = try await SQLiteSyncStore.open(url: BoutiqueDB.inMemoryURL())
        server = SyncServer(store: store, rules: rules, authorize: authorize, minimumSchemaVersion: minimumSchemaVersion)
        secret = Array("a test secret \(UUID().uuidString)".utf8)
        signer = try SyncTokenSigner(secret: secret)
        http = try SyncHTTPServer(server: server, signer: signer, port: 0, options: options, log: log, attachments: attachments)
    }

    func token(tenant: String = "acme", user: String = "ana", expiresIn seconds: TimeInterval = 3_600) throws -> String {
        try signer.token(tenant: tenant, user: user, expiresAt: Date().addingTimeInterval(seconds))
    }

    func transport(tenant: String = "acme", user: String = "ana") throws -> HTTPSyncTransport {
        .http(http.url, token: try token(tenant: tenant, user: user))
    }

    func stop() async {
        await http.shutdown(gracePeriod: .seconds(2))
        await store.close()
    }
}

/// One raw HTTP exchange, for requests no device would send.
struct RawHTTP {
    let status: Int
    let body: Data

    var errorBody: SyncHTTPErrorBody? { try? SyncJSON.decoder().decode(SyncHTTPErrorBody.self, from: body) }

    static func send(
        _ url: URL, _ path: String, method: String = "POST", token: String? = nil, body: Data? = nil
    ) async throws -> RawHTTP {
        var request = URLRequest(url: url.appendingPathComponent(path))
        request.httpMethod = method
        request.httpBody = body
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        // A guard against a hang, not a measure: three minutes at least (URLSession's own 60 s once ran
        // out on a loaded machine), stretched as the tests' deadlines are.
        request.timeoutInterval = RawHTTP.hangTimeout
        let (data, response) = try await URLSession.shared.data(for: request)
        return RawHTTP(status: (response as? HTTPURLResponse)?.statusCode ?? 0, body: data)
    }

    static func json<T: Encodable>(_ value: T) throws -> Data { try SyncJSON.encoder().encode(value) }

    /// How long a test's request may go unanswered before it counts as a hang.
    static var hangTimeout: TimeInterval { max(180, 60 * syncTimeoutScale) }
}

/// One HTTP/1.1 exchange over a plain socket to 127.0.0.1, written the way a client that does not wait
/// for `100 Continue` writes it: the head, then the body in pieces as the network takes them, then the
/// answer. A server that answers early and closes the connection while the body still comes makes
/// the client's next write fail (the connection is reset), as curl reports "Send failure: Broken
/// pipe" instead of the answer: that shows as a thrown ``Failure`` with its `errno`.
///
/// The socket calls block, so the exchange runs on a thread of its own, not on the test's task pool.
enum SocketHTTP {
    struct Failure: Error, CustomStringConvertible {
        let call: String
        let code: Int32
        var description: String { "\(call): errno \(code)" }
    }

    /// Sends `head` (request line and headers, without the blank line), then `body` in `pieces` parts
    /// `pause` apart, and returns everything the server sent until it closed the connection. A send or
    /// a receive that waits a minute (a hang, even on a loaded machine) fails with `EAGAIN`.
    static func exchange(port: Int, head: String, body: [UInt8], pieces: Int = 1, pause: Duration = .zero) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result { try blockingExchange(port: port, head: head, body: body, pieces: pieces, pause: pause) })
            }.start()
        }
    }

    private static func blockingExchange(port: Int, head: String, body: [UInt8], pieces: Int, pause: Duration) throws -> String {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw Failure(call: "socket", code: errno) }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(call: "connect", code: errno) }
        var timeout = timeval(tv_sec: Int(syncHangDeadline(seconds: 60)), tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        #if !canImport(Glibc)
            var one: Int32 = 1
            setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        try sendAll(descriptor, Array((head + "\r\n\r\n").utf8))
        let pieceLength = max(1, (body.count + pieces - 1) / max(1, pieces))
        var offset = 0
        while offset < body.count {
            Thread.sleep(forTimeInterval: Double(pause.components.seconds) + Double(pause.components.attoseconds) / 1e18)
            let end = min(body.count, offset + pieceLength)
            try sendAll(descriptor, Array(body[offset..<end]))
            offset = end
        }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count == 0 { break }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw Failure(call: "recv", code: errno) }
            answer += buffer.prefix(count)
        }
        return String(decoding: answer, as: UTF8.self)
    }

    private static func sendAll(_ descriptor: Int32, _ bytes: [UInt8]) throws {
        #if canImport(Glibc)
            let flags = Int32(MSG_NOSIGNAL)
        #else
            let flags: Int32 = 0
        #endif
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, flags) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw Failure(call: "send", code: errno) }
            sent += count
        }
    }
}
#endif
