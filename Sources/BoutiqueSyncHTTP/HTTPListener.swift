import BoutiqueSQLite
import CMicroHTTPD
import Foundation

/// An HTTP/1.1 listener over GNU libmicrohttpd whose handlers are Swift `async` functions.
///
/// One libmicrohttpd thread polls every connection (epoll on Linux). A request's body is read into memory up
/// to ``maximumBodyBytes`` (a longer one is refused: see ``drainedExcessBytes``); then the connection is
/// *suspended* while the handler runs as a task, and resumed to send the handler's response. So a
/// long-polling pull holds a socket and a suspended task, not a thread: hundreds of idle devices cost
/// little.
///
/// A client must send its whole request within the request deadline and read its whole answer within
/// the response deadline (``ConnectionDeadlines``); connections that have not sent a whole request
/// are kept to a budget, in all and per address (``UnfinishedRequests``); the answers waiting to be
/// read are kept to a budget of bytes (``QueuedResponseBytes``); a request whose head frames its body
/// in more than one way is refused with its connection closed (``RequestFraming``), and so is one
/// whose path holds a NUL byte or another control character (``RequestTarget``).
///
/// ``shutdown(gracePeriod:)`` stops accepting connections at once, lets the requests already in
/// flight finish (up to the grace period), then closes everything.
final class HTTPListener: Sendable {
    typealias Handler = @Sendable (HTTPRequest) async -> HTTPResponse

    /// The port the listener is bound to.
    var port: Int { boundPort.withLock { $0 } }
    /// Set once, right after the daemon bound its socket (before anyone can know the port).
    private let boundPort = Lock(0)
    /// The longest request body kept; a longer one is refused (see ``drainedExcessBytes``).
    let maximumBodyBytes: Int
    /// How far over ``maximumBodyBytes`` a body may run and still be read (and dropped) before its 413,
    /// so that a client still sending it reads the answer instead of a reset connection. A body
    /// declared longer still is answered before it is read; one of no declared length that runs
    /// longer still is cut off with its connection.
    static let drainedExcessBytes = 1 << 20
    /// ``maximumBodyBytes`` plus ``drainedExcessBytes``, or `Int.max` when that does not fit.
    private let drainedBodyBytes: Int

    private let handler: Handler
    private let log: SyncRequestLog?
    private let deadlines: ConnectionDeadlines
    private let queuedResponses: QueuedResponseBytes
    private let daemon: Lock<Daemon?>
    private let context: Box
    private let state = Lock(ListenerState())
    /// What libmicrohttpd said while starting a TLS daemon, and the PEM text it was given: both are
    /// the daemon's for as long as it runs, and freed after it stopped (the key's bytes cleared first).
    private let tlsMaterial: TLSMaterial?
    /// The connections suspended while their handlers run, by exchange. Whoever removes one resumes
    /// it: the handler's task when it has its response, or ``shutdown(gracePeriod:)`` (with a 503) when
    /// the grace period ran out — libmicrohttpd aborts the process if it is stopped while a connection
    /// is suspended. Its own lock: the daemon's thread, which `MHD_stop_daemon` joins, takes `state`'s.
    private let suspended = Lock(Suspended())

    private struct Suspended {
        var connections: [ObjectIdentifier: SuspendedConnection] = [:]
        /// Set once the daemon is stopping: a handler finishing later finds its connection gone.
        var isStopping = false
    }

    private struct ListenerState {
        var inFlight = 0
        /// Set once the listener stops accepting connections.
        var isShuttingDown = false
        /// Set once ``shutdown(gracePeriod:)`` has begun.
        var isStopping = false
    }

    /// The listening socket libmicrohttpd handed back when it stopped accepting (-1: none), `nil`
    /// while it accepts. Its own lock, held while the daemon is told to stop accepting: a second
    /// caller of ``stopAccepting()`` returns only once the first is done, so that ``shutdown(gracePeriod:)``
    /// finds the socket to close, and never stops the daemon while it is being quiesced.
    private let listeningSocket = Lock<Int32?>(nil)

    /// The running daemon; libmicrohttpd's calls on it are thread-safe.
    private struct Daemon: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    /// What the daemon's callbacks receive as their context: the listener, held weakly so that it
    /// can go away first. Retained by the listener until the daemon has stopped.
    ///
    /// `@unchecked Sendable`, safely: `listener` is written once, before the daemon that reads it
    /// from its polling thread is started (thread creation orders the write before every read), and
    /// only read after that; a weak reference's loads and its clearing are atomic in the runtime.
    private final class Box: @unchecked Sendable {
        weak var listener: HTTPListener?
    }

    /// How long a kept-alive connection may wait for its next request, with no byte received
    /// (libmicrohttpd's own timeout) or in all (``ConnectionDeadlines``).
    static let idleTimeoutSeconds = 120

    /// What a listener is started with besides its address and handler.
    struct Limits {
        var maximumBodyBytes: Int
        var connectionLimit: Int
        var connectionsPerAddress: Int
        var requestDeadline: Duration
        var responseDeadline: Duration
        var unfinishedRequestLimit: Int
        var unfinishedRequestsPerAddress: Int
        var maximumQueuedResponseBytes: Int
    }

    /// Starts listening on `host:port` (IPv4; port 0 picks a free one), speaking HTTPS with `tls`.
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/syncUnavailable(reason:)`` when the address cannot be bound,
    ///   or ``/BoutiqueDB/BoutiqueError/invalidArgument(_:)`` when TLS is asked of a libmicrohttpd built
    ///   without it, or its certificate or key is refused.
    static func start(
        host: String, port: Int, limits: Limits, tls: SyncHTTPTLS? = nil, log: SyncRequestLog?, handler: @escaping Handler
    ) throws -> HTTPListener {
        guard (0...65_535).contains(port) else { throw BoutiqueError.syncUnavailable(reason: "port \(port) is not 0…65535") }
        if tls != nil, boutique_mhd_supports_tls() == 0 {
            throw BoutiqueError.invalidArgument(
                "this libmicrohttpd was built without TLS; install one built with GnuTLS (Debian's and Homebrew's are), "
                    + "or end TLS at a reverse proxy")
        }
        let material = tls.map(TLSMaterial.init)
        let box = Box()
        let connections = FileDescriptorLimit.connections(limits.connectionLimit, softLimit: FileDescriptorLimit.current())
        let deadlines = ConnectionDeadlines(
            requestDeadline: limits.requestDeadline, responseDeadline: limits.responseDeadline,
            idleTimeout: .seconds(idleTimeoutSeconds),
            // Half the connections at most, so that the other half are there for requests being
            // handled and answered: libmicrohttpd refuses a connection past its limit before the
            // budget can make room by closing an unfinished one.
            unfinishedLimit: min(limits.unfinishedRequestLimit, max(1, connections / 2)),
            unfinishedPerAddress: limits.unfinishedRequestsPerAddress, log: log)
        let listener = HTTPListener(
            context: box, maximumBodyBytes: limits.maximumBodyBytes, log: log, deadlines: deadlines,
            queuedResponses: QueuedResponseBytes(limit: limits.maximumQueuedResponseBytes), tlsMaterial: material, handler: handler)
        // Set before the daemon starts: its polling thread only ever sees the box filled in.
        box.listener = listener
        guard let started = boutique_mhd_start(
            host, UInt16(port), HTTPListener.admit, HTTPListener.access, Unmanaged.passUnretained(box).toOpaque(),
            HTTPListener.completed, HTTPListener.connectionChanged, HTTPListener.requestStarted,
            UInt32(clamping: max(1, connections)), UInt32(clamping: max(1, min(limits.connectionsPerAddress, connections))),
            UInt32(idleTimeoutSeconds), material?.certificate, material?.key, material?.log)
        else {
            if let said = material?.startMessage {
                // GnuTLS's reasons name what it could not use; anything else (a port taken) is the address's.
                let lowered = said.lowercased()
                if ["gnutls", "certificate", "key", "tls"].contains(where: lowered.contains) {
                    throw BoutiqueError.invalidArgument("the TLS certificate or key is refused: \(said)")
                }
                throw BoutiqueError.syncUnavailable(reason: "cannot listen on \(host):\(port): \(said)")
            }
            throw BoutiqueError.syncUnavailable(reason: "cannot listen on \(host):\(port) (in use, or not an IPv4 address)")
        }
        if let material { boutique_mhd_log_started(material.log) }
        let bound = Int(boutique_mhd_port(started))
        listener.boundPort.withLock { $0 = bound == 0 ? port : bound }
        listener.daemon.withLock { $0 = Daemon(pointer: started) }
        listener.deadlines.startSweeping()
        return listener
    }

    private init(
        context: Box, maximumBodyBytes: Int, log: SyncRequestLog?, deadlines: ConnectionDeadlines,
        queuedResponses: QueuedResponseBytes, tlsMaterial: TLSMaterial?, handler: @escaping Handler
    ) {
        self.daemon = Lock(nil)
        self.tlsMaterial = tlsMaterial
        self.context = context
        self.maximumBodyBytes = maximumBodyBytes
        let (drained, overflows) = maximumBodyBytes.addingReportingOverflow(Self.drainedExcessBytes)
        self.drainedBodyBytes = overflows ? .max : drained
        self.log = log
        self.deadlines = deadlines
        self.queuedResponses = queuedResponses
        self.handler = handler
    }

    deinit {
        guard let running = daemon.withLock({ $0 }) else { return }
        // Dropped without shutdown(): the same end, without the grace period.
        if resumeEveryConnection() > 0 {
            for _ in 0..<200 where requestsInFlight > 0 { usleep(5_000) }
        }
        deadlines.stopSweeping()
        MHD_stop_daemon(running.pointer)
    }

    /// The PEM text and start-up log of a TLS daemon, in memory of its own that libmicrohttpd may
    /// point into while the daemon runs. Freed by its owner, the listener, whose `deinit` runs after the
    /// daemon stopped.
    private final class TLSMaterial: @unchecked Sendable {
        let certificate: UnsafeMutablePointer<CChar>
        let key: UnsafeMutablePointer<CChar>
        let keyLength: Int
        let log: UnsafeMutablePointer<boutique_mhd_log>

        init(_ tls: SyncHTTPTLS) {
            certificate = Self.copy(tls.certificatePEM)
            key = Self.copy(tls.privateKeyPEM)
            keyLength = tls.privateKeyPEM.utf8.count
            log = .allocate(capacity: 1)
            log.initialize(to: boutique_mhd_log())
        }

        /// `text` as a C string in memory of its own.
        private static func copy(_ text: String) -> UnsafeMutablePointer<CChar> {
            let characters = text.utf8CString
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: characters.count)
            _ = UnsafeMutableBufferPointer(start: copy, count: characters.count).initialize(from: characters)
            return copy
        }

        /// The first message libmicrohttpd logged while starting, `nil` for none.
        var startMessage: String? {
            let text = String(cString: boutique_mhd_log_message(log)).trimmingCharacters(in: .whitespacesAndNewlines)
            return text.isEmpty ? nil : text
        }

        deinit {
            certificate.deallocate()
            memset(key, 0, keyLength)
            key.deallocate()
            log.deallocate()
        }
    }

    /// How many requests are being read, handled or answered.
    var requestsInFlight: Int { state.withLock { $0.inFlight } }

    /// How many connections are open now.
    var connectionsOpen: Int { deadlines.openCount }

    /// The bytes of answers queued and not yet sent.
    var queuedResponseBytes: Int { queuedResponses.current }

    /// Stops accepting connections, waits up to `gracePeriod` for the requests in flight to be
    /// answered, then stops the daemon (closing idle keep-alive connections).
    func shutdown(gracePeriod: Duration) async {
        guard let running = daemon.withLock({ $0 }) else { return }
        stopAccepting()
        let alreadyStopping = state.withLock { state -> Bool in
            defer { state.isStopping = true }
            return state.isStopping
        }
        guard !alreadyStopping else { return }
        let listening = listeningSocket.withLock { $0 ?? -1 }
        let deadline = ContinuousClock.now.advanced(by: gracePeriod)
        while requestsInFlight > 0, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        // No handler starts from here: a request that comes on a connection kept alive from before is
        // answered 503 at once (it was never in flight, and its device asks again). One that started
        // just before finishes within what is left of the grace period.
        suspended.withLock { $0.isStopping = true }
        while suspended.withLock({ !$0.connections.isEmpty }), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        // Handlers still running after the grace period: their connections are answered 503 and
        // resumed, and given a moment to be sent, so that none is suspended when the daemon stops.
        let cutOff = resumeEveryConnection()
        if cutOff > 0 {
            log?.note("shutdown", message: "\(cutOff) requests still running after the grace period were answered 503")
            let sent = ContinuousClock.now.advanced(by: .seconds(1))
            while requestsInFlight > 0, ContinuousClock.now < sent { try? await Task.sleep(for: .milliseconds(5)) }
        }
        daemon.withLock { $0 = nil }
        deadlines.stopSweeping()
        MHD_stop_daemon(running.pointer)
        if listening >= 0 { close(listening) }
    }

    /// Stops accepting connections. Requests on connections already open are still served, and each
    /// connection is closed once its answer is sent (see ``respond``), so that a server about to stop
    /// can answer its waiting long polls with connections that will not be kept alive.
    func stopAccepting() {
        listeningSocket.withLock { listening in
            guard listening == nil, let running = daemon.withLock({ $0 }) else { return }
            state.withLock { $0.isShuttingDown = true }
            listening = MHD_quiesce_daemon(running.pointer)
        }
    }

    /// Whether the daemon was told to stop accepting and handed its listening socket back (for tests).
    var hasStoppedAccepting: Bool { listeningSocket.withLock { $0 != nil } }

    /// Resumes every suspended connection with a 503, stops later resumptions, and says how many there were.
    private func resumeEveryConnection() -> Int {
        suspended.withLock { suspended in
            suspended.isStopping = true
            let waiting = suspended.connections.values
            suspended.connections = [:]
            for connection in waiting {
                connection.exchange.response.withLock { response in
                    if response == nil {
                        response = .error(503, "unavailable", "the server is shutting down; try again", retryAfterSeconds: 1)
                    }
                }
                MHD_resume_connection(connection.connection)
            }
            return waiting.count
        }
    }

    // MARK: The daemon's callbacks (on its polling thread)

    /// One request's progress: the parts read so far, then the handler's response.
    private final class Exchange: @unchecked Sendable {
        let method: String
        let path: String
        let query: String
        let authorization: String?
        let client: String
        let requestID: String
        let started = ContinuousClock.now
        let startedAt = Date()
        var body: [UInt8] = []
        var tooLarge = false
        /// How many body bytes were read, kept or not.
        var received = 0
        var handlerStarted = false
        /// What was queued: its status and body length, and whose request it was.
        var answered: (status: Int, bytes: Int, tenant: String?, user: String?)?
        /// Set by the handler's task, read on the polling thread after the connection resumes.
        let response = Lock<HTTPResponse?>(nil)

        init(method: String, path: String, query: String, authorization: String?, client: String, requestID: String) {
            self.method = method
            self.path = path
            self.query = query
            self.authorization = authorization
            self.client = client
            self.requestID = requestID
        }
    }

    /// A connection is about to open: it may when the unfinished connections leave room for it.
    private static let admit: MHD_AcceptPolicyCallback = { context, address, _ in
        guard let context, let listener = Unmanaged<Box>.fromOpaque(context).takeUnretainedValue().listener else { return .NO }
        var text = [CChar](repeating: 0, count: 64)
        boutique_address_text(address, &text, text.count)
        let client = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return listener.deadlines.admit(client: client) ? .YES : .NO
    }

    private static let access: MHD_AccessHandlerCallback = { context, connection, url, method, _, uploadData, uploadSize, slot in
        guard let context, let connection, let uploadSize, let slot,
            let listener = Unmanaged<Box>.fromOpaque(context).takeUnretainedValue().listener
        else { return .NO }
        return listener.access(connection, url: url, method: method, uploadData: uploadData, uploadSize: uploadSize, slot: slot)
    }

    /// What the request-line callback leaves in a request's slot when the line's target hides a NUL
    /// byte: not an exchange (no object lives at address 1), but the mark the access handler refuses
    /// the request by.
    private static var hiddenNULMark: UnsafeMutableRawPointer { UnsafeMutableRawPointer(bitPattern: 1)! }

    private static let completed: MHD_RequestCompletedCallback = { context, connection, slot, _ in
        let listener = context.flatMap { Unmanaged<Box>.fromOpaque($0).takeUnretainedValue().listener }
        if let connection { listener?.deadlines.answered(connection) }
        guard let slot, let pointer = slot.pointee, pointer != hiddenNULMark else {
            slot?.pointee = nil
            // No handler saw the request: libmicrohttpd answered it itself (a head too large for the
            // connection's memory, a Content-Length it cannot read), or the client went away before
            // its head was in. The first gets its log line, with what is known of it.
            if let listener, let connection { listener.logAnswerOfItsOwn(connection) }
            return
        }
        slot.pointee = nil
        let exchange = Unmanaged<Exchange>.fromOpaque(pointer).takeRetainedValue()
        guard let listener else { return }
        listener.state.withLock { $0.inFlight -= 1 }
        listener.log?.request(
            SyncRequestLog.Request(
                time: exchange.startedAt, client: exchange.client, method: exchange.method, path: exchange.path,
                status: exchange.answered?.status ?? 0, tenant: exchange.answered?.tenant, user: exchange.answered?.user,
                bytesIn: exchange.received, bytesOut: exchange.answered?.bytes ?? 0,
                duration: ContinuousClock.now - exchange.started, requestID: exchange.requestID))
    }

    /// A connection opened or closed: its request deadline starts, or it is forgotten.
    private static let connectionChanged: MHD_NotifyConnectionCallback = { context, connection, _, change in
        guard let context, let connection,
            let listener = Unmanaged<Box>.fromOpaque(context).takeUnretainedValue().listener
        else { return }
        if change.rawValue == 0 {  // MHD_CONNECTION_NOTIFY_STARTED
            listener.deadlines.opened(
                connection, socket: boutique_mhd_connection_socket(connection), client: clientAddress(connection))
        } else {
            listener.deadlines.closed(connection)
        }
    }

    /// A request's first line arrived: on a kept-alive connection, its request deadline starts.
    private static let requestStarted: @convention(c) (
        UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?
    ) -> UnsafeMutableRawPointer? = { context, uri, connection in
        if let context, let connection, let listener = Unmanaged<Box>.fromOpaque(context).takeUnretainedValue().listener {
            listener.deadlines.requestBegan(connection)
        }
        // Looked at now, before libmicrohttpd changes the target: later only the part before the NUL is left.
        return boutique_mhd_target_hides_nul(uri) != 0 ? hiddenNULMark : nil
    }

    /// Logs the answer libmicrohttpd queued on `connection` itself, for a request no handler saw: its
    /// status and client (the library does not tell its method and path).
    ///
    /// Only answers given after the request line was read reach the completion callback this runs
    /// from (431, an unreadable Content-Length). A request line too long (414) or an HTTP version the
    /// library does not speak (505) is answered before any callback sees the request, and by the time
    /// the connection closes its status is no longer there to read: those have no log line.
    private func logAnswerOfItsOwn(_ connection: OpaquePointer) {
        let status = Int(boutique_mhd_queued_status(connection))
        guard status > 0 else { return }
        log?.request(
            SyncRequestLog.Request(
                time: Date(), client: Self.clientAddress(connection), method: "-", path: "-", status: status, tenant: nil, user: nil,
                bytesIn: 0, bytesOut: 0, duration: .zero, requestID: RequestID.make()))
    }

    private func access(
        _ connection: OpaquePointer, url: UnsafePointer<CChar>?, method: UnsafePointer<CChar>?,
        uploadData: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>, slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        guard let pointer = slot.pointee, pointer != Self.hiddenNULMark else {
            // The headers have arrived: the first call of a request.
            let hidesNUL = slot.pointee == Self.hiddenNULMark
            let target = url.map { String(cString: $0) } ?? "/"
            let before = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? target
            // The log shows that the path went on past a NUL (libmicrohttpd kept only what came before it).
            let path = hidesNUL ? before + "%00…" : before
            let exchange = Exchange(
                method: method.map { String(cString: $0) } ?? "", path: path, query: hidesNUL ? "" : Self.query(connection),
                authorization: Self.header(connection, "Authorization"), client: Self.clientAddress(connection),
                requestID: RequestID.make())
            slot.pointee = Unmanaged.passRetained(exchange).toOpaque()
            state.withLock { $0.inFlight += 1 }
            let pathRefusal: HTTPResponse? = hidesNUL ? .refusal(.invalid, "the path holds a NUL byte") : RequestTarget.refusal(of: path)
            if let refusal = RequestFraming.refusal(of: connection) ?? pathRefusal {
                // Answered at once, and the connection closed unread: what follows the head cannot be
                // told apart from a next request, which is how requests are smuggled past a proxy.
                deadlines.handling(connection)
                return respond(connection, exchange, refusal, closing: true)
            }
            if let declared = Self.header(connection, "Content-Length").flatMap(Int.init), declared > maximumBodyBytes {
                exchange.tooLarge = true
                // A body not far over the limit is read and dropped, then answered: a client still
                // sending it would otherwise have the connection reset under it and never read the 413
                // and its reason. A client waiting for `100 Continue` has sent nothing yet, and a longer
                // body is not worth reading: those are answered now (libmicrohttpd then closes the
                // connection without reading the body).
                let waitsToSend = Self.header(connection, "Expect")?.lowercased() == "100-continue"
                if waitsToSend || declared > drainedBodyBytes {
                    deadlines.handling(connection)
                    return respond(connection, exchange, tooLarge(), closing: true)
                }
            }
            return .YES
        }
        let exchange = Unmanaged<Exchange>.fromOpaque(pointer).takeUnretainedValue()
        if uploadSize.pointee > 0 {
            let count = uploadSize.pointee
            let (received, overflows) = exchange.received.addingReportingOverflow(count)
            exchange.received = overflows ? .max : received
            // A body whose length was not declared (chunked) is read and dropped up to the same margin
            // as a declared one; past it the connection is closed, so that a client cannot keep it
            // busy by sending for ever.
            if exchange.received > drainedBodyBytes { return .NO }
            if !exchange.tooLarge, let uploadData {
                if exchange.body.count + count > maximumBodyBytes {
                    exchange.tooLarge = true
                    exchange.body = []
                } else {
                    uploadData.withMemoryRebound(to: UInt8.self, capacity: count) { bytes in
                        exchange.body.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count))
                    }
                }
            }
            uploadSize.pointee = 0
            return .YES
        }
        // The handler's answer, taken: the exchange lives until the connection is done with the
        // request, and must not hold the answer's bytes all that time.
        if let response = exchange.response.withLock({ response in defer { response = nil }; return response }) {
            return respond(connection, exchange, response)
        }
        guard !exchange.handlerStarted else { return .YES }
        // The whole request is in: its deadline no longer runs (a long poll may wait past it).
        deadlines.handling(connection)
        if exchange.tooLarge { return respond(connection, exchange, tooLarge()) }
        exchange.handlerStarted = true
        let request = HTTPRequest(
            method: exchange.method, path: exchange.path, query: exchange.query, authorization: exchange.authorization, body: exchange.body,
            clientAddress: exchange.client, requestID: exchange.requestID)
        exchange.body = []
        let id = ObjectIdentifier(exchange)
        let accepted = suspended.withLock { suspended -> Bool in
            guard !suspended.isStopping else { return false }
            MHD_suspend_connection(connection)
            suspended.connections[id] = SuspendedConnection(connection: connection, exchange: exchange)
            return true
        }
        guard accepted else {
            return respond(connection, exchange, .error(503, "unavailable", "the server is shutting down; try again", retryAfterSeconds: 1))
        }
        let handler = self.handler
        let registry = suspended
        Task {
            let response = await handler(request)
            exchange.response.withLock { $0 = response }
            registry.withLock { suspended in
                // Gone when shutdown already answered and resumed it.
                guard let waiting = suspended.connections.removeValue(forKey: id) else { return }
                MHD_resume_connection(waiting.connection)
            }
        }
        return .YES
    }

    /// A connection suspended while its handler runs (libmicrohttpd allows resuming it from any thread).
    private struct SuspendedConnection: @unchecked Sendable {
        let connection: OpaquePointer
        let exchange: Exchange
    }

    /// The answer in place of one that the answers waiting to be read leave no room for.
    private static let busy = HTTPResponse.error(
        503, "unavailable", "the server holds as many answers waiting to be read as it keeps; try again", retryAfterSeconds: 1)

    private func tooLarge() -> HTTPResponse {
        .refusal(.tooLarge, "the request body is larger than the server's limit of \(maximumBodyBytes) bytes")
    }

    /// Queues `response` with the exchange's request id, and notes it for the request's log line.
    /// `closing` closes the connection once it is sent, reading nothing more from it.
    ///
    /// Its bytes count against the budget of answers waiting to be read until they are sent (a
    /// ``HTTPResponse/repeatable`` answer that does not fit is replaced with a 503), and its client has
    /// the response deadline to read them.
    private func respond(_ connection: OpaquePointer, _ exchange: Exchange, _ response: HTTPResponse, closing: Bool = false) -> MHD_Result {
        var response = response
        if !queuedResponses.take(response.body.count, mayRefuse: response.repeatable) {
            var busy = Self.busy
            (busy.tenant, busy.user) = (response.tenant, response.user)
            response = busy
            _ = queuedResponses.take(response.body.count, mayRefuse: false)
        }
        exchange.answered = (response.status, response.body.count, response.tenant, response.user)
        deadlines.answering(connection)
        // Once stopping, no connection is kept alive: a client sending request after request on one
        // would keep requests in flight until the grace period ran out. Closed, it connects again —
        // to another instance, or to this one restarted.
        let closing = closing || state.withLock { $0.isShuttingDown }
        let body = QueuedBody(response.body, budget: queuedResponses)
        return boutique_mhd_respond(
            connection, UInt32(response.status), body.bytes.baseAddress, body.count, QueuedBody.release,
            Unmanaged.passRetained(body).toOpaque(), response.contentType, UInt32(max(0, response.retryAfterSeconds)),
            exchange.requestID, closing ? 1 : 0)
    }

    /// The client's address, as text.
    private static func clientAddress(_ connection: OpaquePointer) -> String {
        var text = [CChar](repeating: 0, count: 64)
        boutique_mhd_client_address(connection, &text, text.count)
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The protocol's query arguments (``HTTPRequest/queryArgumentNames``) as `name=value&…`: libmicrohttpd
    /// takes the query off the URL it hands over, and keeps its arguments apart.
    private static func query(_ connection: OpaquePointer) -> String {
        HTTPRequest.queryArgumentNames.compactMap { name in
            MHD_lookup_connection_value(connection, .GET_ARGUMENT_KIND, name).map { "\(name)=\(String(cString: $0))" }
        }.joined(separator: "&")
    }

    private static func header(_ connection: OpaquePointer, _ name: String) -> String? {
        MHD_lookup_connection_value(connection, .HEADER_KIND, name).map { String(cString: $0) }
    }
}
