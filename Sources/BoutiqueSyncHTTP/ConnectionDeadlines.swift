import BoutiqueSQLite
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The deadline of every open connection, the budget of connections that have not sent a whole
/// request (``UnfinishedRequests``), and a thread that closes the connections past their deadline.
///
/// libmicrohttpd's own timeout counts from the last byte received, so a client sending one byte every
/// few seconds keeps a connection for ever; enough such clients hold every connection. Here a
/// connection has, from the moment it opens, the request deadline to send a whole request (head and
/// body); once the request is in, none while it is handled (a long poll waits as long as it must);
/// from the moment its answer is queued, the response deadline to read it whole (a client that stops
/// reading would otherwise hold the answer's bytes for as long as it likes); then, kept alive, the idle
/// timeout in all to start its next request, whose first line starts a new request deadline.
///
/// Past its deadline a connection's socket is shut down (`shutdown(2)`, not closed: the descriptor
/// stays libmicrohttpd's, which sees the end of the stream, closes the connection and reports it
/// closed). Every access is under one lock, and the closing report takes it too, so the sweep never
/// touches a descriptor libmicrohttpd has closed and perhaps reused.
final class ConnectionDeadlines: Sendable {
    private let requestDeadline: Duration
    private let responseDeadline: Duration
    private let idleTimeout: Duration
    private let log: SyncRequestLog?
    private let state: Lock<State>
    private let sweeping = Lock(false)

    private struct State {
        var connections: [UInt: Tracked] = [:]
        var unfinished: UnfinishedRequests
    }

    private struct Tracked {
        let socket: Int32
        let client: String
        /// When it is closed, `nil` while its request is handled.
        var deadline: ContinuousClock.Instant?
        var phase: Phase
    }

    /// Where a connection is in its exchange.
    private enum Phase {
        /// Its request is being read.
        case reading
        /// Its request is in and being handled.
        case handling
        /// Its answer is queued and being sent.
        case answering
        /// Kept alive between requests.
        case idle
    }

    /// How long a connection has been unfinished before a new one may take its place: a client
    /// sending its request in one go has sent it long before.
    static let displacementPatience = Duration.seconds(1)

    init(
        requestDeadline: Duration, responseDeadline: Duration, idleTimeout: Duration, unfinishedLimit: Int,
        unfinishedPerAddress: Int, log: SyncRequestLog?
    ) {
        self.requestDeadline = requestDeadline
        self.responseDeadline = responseDeadline
        self.idleTimeout = idleTimeout
        self.log = log
        state = Lock(State(unfinished: UnfinishedRequests(
            limit: unfinishedLimit, perAddress: unfinishedPerAddress, patience: Self.displacementPatience)))
    }

    /// How many connections are open now.
    var openCount: Int { state.withLock { $0.connections.count } }

    private static func key(_ connection: OpaquePointer) -> UInt { UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection))) }

    /// Whether a new connection from `client` may open: it may when the unfinished connections leave
    /// room, or when an older one of them gives way (it is closed here).
    func admit(client: String) -> Bool {
        let displaced = state.withLock { state -> String?? in
            switch state.unfinished.admission(of: client, now: .now) {
            case .admit: return .some(nil)
            case .refuse: return nil
            case .displace(let key):
                state.unfinished.remove(key)
                guard let tracked = state.connections[key] else { return .some(nil) }
                shutdown(tracked.socket, Int32(SHUT_RDWR))
                state.connections[key]?.deadline = nil
                return .some(tracked.client)
            }
        }
        // A refusal is not logged, as libmicrohttpd's own at its connection limits are not: each is
        // one of a flood of connections, and the log would be the flood.
        guard let displaced else { return false }
        if let displaced { log?.unfinishedDisplaced(client: displaced) }
        return true
    }

    /// A connection opened: its first request must arrive whole within the request deadline.
    func opened(_ connection: OpaquePointer, socket: Int32, client: String) {
        let now = ContinuousClock.now
        state.withLock { state in
            state.connections[Self.key(connection)] = Tracked(
                socket: socket, client: client, deadline: now + requestDeadline, phase: .reading)
            state.unfinished.add(Self.key(connection), client: client, since: now)
        }
    }

    /// A request's first line arrived; on a kept-alive connection its request deadline starts now.
    func requestBegan(_ connection: OpaquePointer) {
        let deadline = ContinuousClock.now + requestDeadline
        state.withLock { state in
            guard state.connections[Self.key(connection)]?.phase == .idle else { return }
            state.connections[Self.key(connection)]?.phase = .reading
            state.connections[Self.key(connection)]?.deadline = deadline
        }
    }

    /// The request is in: no deadline while it is handled, and it no longer counts as unfinished.
    func handling(_ connection: OpaquePointer) {
        state.withLock { state in
            guard state.connections[Self.key(connection)] != nil else { return }
            state.connections[Self.key(connection)]?.deadline = nil
            state.connections[Self.key(connection)]?.phase = .handling
            state.unfinished.remove(Self.key(connection))
        }
    }

    /// The answer is queued: the client has the response deadline to read it.
    func answering(_ connection: OpaquePointer) {
        let deadline = ContinuousClock.now + responseDeadline
        state.withLock { state in
            guard state.connections[Self.key(connection)] != nil else { return }
            state.connections[Self.key(connection)]?.deadline = deadline
            state.connections[Self.key(connection)]?.phase = .answering
            state.unfinished.remove(Self.key(connection))
        }
    }

    /// The request was answered; the connection, kept alive, waits for its next one, unfinished again.
    func answered(_ connection: OpaquePointer) {
        let now = ContinuousClock.now
        state.withLock { state in
            guard let tracked = state.connections[Self.key(connection)] else { return }
            state.connections[Self.key(connection)]?.phase = .idle
            state.connections[Self.key(connection)]?.deadline = now + idleTimeout
            state.unfinished.add(Self.key(connection), client: tracked.client, since: now)
        }
    }

    /// The connection closed.
    func closed(_ connection: OpaquePointer) {
        state.withLock { state in
            state.connections[Self.key(connection)] = nil
            state.unfinished.remove(Self.key(connection))
        }
    }

    /// Starts the thread that closes connections past their deadline: it looks a few times per
    /// (shorter) deadline, at most every 50 ms and at least every second.
    func startSweeping() {
        sweeping.withLock { $0 = true }
        let interval = min(max(min(requestDeadline, responseDeadline) / 4, .milliseconds(50)), .seconds(1))
        let thread = Thread { [self] in
            while sweeping.withLock({ $0 }) {
                Thread.sleep(forTimeInterval: Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18)
                sweep()
            }
        }
        thread.name = "BoutiqueSyncHTTP deadlines"
        thread.start()
    }

    /// Stops the sweeping thread (it ends within one interval; it holds the deadlines, not the daemon).
    func stopSweeping() {
        sweeping.withLock { $0 = false }
    }

    private func sweep() {
        let now = ContinuousClock.now
        let expired = state.withLock { state -> [(client: String, phase: Phase)] in
            var expired: [(String, Phase)] = []
            for (key, tracked) in state.connections {
                guard let deadline = tracked.deadline, deadline <= now else { continue }
                shutdown(tracked.socket, Int32(SHUT_RDWR))
                state.connections[key]?.deadline = nil
                state.unfinished.remove(key)
                expired.append((tracked.client, tracked.phase))
            }
            return expired
        }
        for (client, phase) in expired {
            switch phase {
            case .reading: log?.requestTimeout(client: client, deadline: requestDeadline)
            case .answering: log?.responseTimeout(client: client, deadline: responseDeadline)
            case .handling, .idle: break
            }
        }
    }
}
