import BoutiqueSQLite
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The deadline of every open connection, and a thread that closes the connections past theirs.
///
/// libmicrohttpd's own timeout counts from the last byte received, so a client sending one byte every
/// few seconds keeps a connection for ever; enough such clients hold every connection. Here a
/// connection has, from the moment it opens, the request deadline to send a whole request (head and
/// body); once the request is in, none while it is handled (a long poll waits as long as it must) and
/// answered; then, kept alive, the idle timeout in all to start its next request, whose first line
/// starts a new request deadline.
///
/// Past its deadline a connection's socket is shut down (`shutdown(2)`, not closed: the descriptor
/// stays libmicrohttpd's, which sees the end of the stream, closes the connection and reports it
/// closed). Every access is under one lock, and the closing report takes it too, so the sweep never
/// touches a descriptor libmicrohttpd has closed and perhaps reused.
final class ConnectionDeadlines: Sendable {
    private let requestDeadline: Duration
    private let idleTimeout: Duration
    private let log: SyncRequestLog?
    private let connections = Lock<[UInt: Tracked]>([:])
    private let sweeping = Lock(false)

    private struct Tracked {
        let socket: Int32
        let client: String
        /// When it is closed, `nil` while its request is handled or answered.
        var deadline: ContinuousClock.Instant?
        /// Between requests on a kept-alive connection.
        var idle: Bool
    }

    init(requestDeadline: Duration, idleTimeout: Duration, log: SyncRequestLog?) {
        self.requestDeadline = requestDeadline
        self.idleTimeout = idleTimeout
        self.log = log
    }

    private static func key(_ connection: OpaquePointer) -> UInt { UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection))) }

    /// A connection opened: its first request must arrive whole within the request deadline.
    func opened(_ connection: OpaquePointer, socket: Int32, client: String) {
        let deadline = ContinuousClock.now + requestDeadline
        connections.withLock { $0[Self.key(connection)] = Tracked(socket: socket, client: client, deadline: deadline, idle: false) }
    }

    /// A request's first line arrived; on a kept-alive connection its request deadline starts now.
    func requestBegan(_ connection: OpaquePointer) {
        let deadline = ContinuousClock.now + requestDeadline
        connections.withLock { connections in
            guard connections[Self.key(connection)]?.idle == true else { return }
            connections[Self.key(connection)]?.idle = false
            connections[Self.key(connection)]?.deadline = deadline
        }
    }

    /// The request is in: no deadline while it is handled and answered.
    func handling(_ connection: OpaquePointer) {
        connections.withLock { $0[Self.key(connection)]?.deadline = nil }
    }

    /// The request was answered; the connection, kept alive, waits for its next one.
    func answered(_ connection: OpaquePointer) {
        let deadline = ContinuousClock.now + idleTimeout
        connections.withLock { connections in
            connections[Self.key(connection)]?.idle = true
            connections[Self.key(connection)]?.deadline = deadline
        }
    }

    /// The connection closed.
    func closed(_ connection: OpaquePointer) {
        connections.withLock { $0[Self.key(connection)] = nil }
    }

    /// Starts the thread that closes connections past their deadline: it looks a few times per
    /// deadline, at most every 50 ms and at least every second.
    func startSweeping() {
        sweeping.withLock { $0 = true }
        let interval = min(max(requestDeadline / 4, .milliseconds(50)), .seconds(1))
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
        let expired = connections.withLock { connections -> [(client: String, idle: Bool)] in
            var expired: [(String, Bool)] = []
            for (key, tracked) in connections {
                guard let deadline = tracked.deadline, deadline <= now else { continue }
                shutdown(tracked.socket, Int32(SHUT_RDWR))
                connections[key]?.deadline = nil
                expired.append((tracked.client, tracked.idle))
            }
            return expired
        }
        for (client, idle) in expired where !idle {
            log?.requestTimeout(client: client, deadline: requestDeadline)
        }
    }
}
