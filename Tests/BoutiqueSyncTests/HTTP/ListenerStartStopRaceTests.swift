// The HTTP front end is part of the package where GNU libmicrohttpd is installed; so are its tests.
#if BOUTIQUE_SYNC_HTTP
import BoutiqueSync
@testable import BoutiqueSyncHTTP
import Foundation
import Synchronization
import Testing

/// Starting and stopping listeners from several threads at once: each start or stop happens once,
/// whoever calls first.
@Suite struct ListenerStartStopRaceTests {
    /// Runs `body` on `count` threads of their own, released together, and returns what each returned.
    static func atOnce<T: Sendable>(_ count: Int, _ body: @escaping @Sendable () -> T) async -> [T] {
        let barrier = Barrier()
        return await withTaskGroup(of: T.self) { group in
            for _ in 0..<count {
                group.addTask {
                    await withCheckedContinuation { continuation in
                        Thread {
                            barrier.ready.add(1, ordering: .acquiringAndReleasing)
                            while barrier.ready.load(ordering: .acquiring) < count {}
                            continuation.resume(returning: body())
                        }.start()
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
    }

    /// Threads spinning until all of them are there, so that they go on together.
    final class Barrier: Sendable {
        let ready = Atomic<Int>(0)
    }

    /// Whoever calls ``SyncHTTPServer/serveMetrics(port:)`` first starts the one metrics listener; the
    /// others are refused, however close together they call. After shutdown none starts (it would
    /// never be stopped).
    @Test func serveMetricsCalledAtOnceStartsOneListener() async throws {
        for _ in 0..<20 {
            let server = try await HTTPTestServer()
            let http = server.http
            let started = await Self.atOnce(6) { () -> String? in (try? http.serveMetrics(port: 0))?.absoluteString }
            #expect(started.compactMap { $0 }.count == 1, "\(started)")
            await server.stop()
            #expect(throws: BoutiqueError.self, "no listener after shutdown: none would be stopped") { try http.serveMetrics(port: 0) }
        }
    }

    static let limits = HTTPListener.Limits(
        maximumBodyBytes: 1_024, connectionLimit: 8, connectionsPerAddress: 8, requestDeadline: .seconds(60),
        responseDeadline: .seconds(60), unfinishedRequestLimit: 4, unfinishedRequestsPerAddress: 4, maximumQueuedResponseBytes: 1 << 20)

    /// A listener on `port` again. The port was one the system picked, which other suites running at
    /// the same moment may be handed for a while as soon as it is free: a few tries, a moment apart.
    /// A socket the listener failed to close keeps the port for every try.
    static func listen(on port: Int) async throws -> HTTPListener {
        for _ in 0..<19 {
            if let listener = try? HTTPListener.start(host: "127.0.0.1", port: port, limits: limits, log: nil, handler: { _ in
                HTTPResponse(status: 204, body: [])
            }) {
                return listener
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        return try HTTPListener.start(host: "127.0.0.1", port: port, limits: limits, log: nil) { _ in HTTPResponse(status: 204, body: []) }
    }

    /// Whoever calls ``HTTPListener/stopAccepting()``, the listener has stopped accepting when the
    /// call returns, even while another caller's call is under way: ``HTTPListener/shutdown(gracePeriod:)``
    /// relies on it to find the listening socket it closes (and the port can be bound again).
    @Test func everyCallerOfStopAcceptingFindsItDone() async throws {
        for _ in 0..<40 {
            let listener = try HTTPListener.start(host: "127.0.0.1", port: 0, limits: Self.limits, log: nil) { _ in
                HTTPResponse(status: 204, body: [])
            }
            let port = listener.port
            let done = await Self.atOnce(2) { () -> Bool in
                listener.stopAccepting()
                return listener.hasStoppedAccepting
            }
            #expect(done == [true, true])
            await listener.shutdown(gracePeriod: .zero)
            let again = try await Self.listen(on: port)
            await again.shutdown(gracePeriod: .zero)
        }
    }
}
#endif
