import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Hears the commits every server instance on the database announces (`LISTEN boutique_sync`) and
/// reports each one's tenant to the store's observers.
///
/// ```swift
/// let listener = PostgreSQLCommitListener(url: url)
/// try await listener.observe { tenant in print("\(tenant) has new changes") }   // listening once it returns
/// await listener.stop()
/// ```
///
/// One connection and one thread per store, however many servers observe it: the thread waits on the
/// connection's socket (`poll`, with a pipe that ``stop()`` writes to), reads what arrived
/// (`PQconsumeInput`) and takes the notifications out (`PQnotifies`).
///
/// When the connection drops, the thread connects again (waiting longer between attempts, up to 5
/// seconds) and then wakes every tenant it knows: a commit announced while it was away may have been
/// missed. It knows the tenants notifications named and those the store ran a transaction for
/// (``remember(_:)``), which include every tenant a long poll waits on, since a long poll reads first.
/// A connection that stays silent is checked every 30 seconds, so one that died without a word is
/// noticed too.
final class PostgreSQLCommitListener: Sendable {
    /// The listener's connection's `application_name`.
    static let applicationName = "BoutiqueSyncServer listener"
    private enum Phase {
        /// No thread: nothing observed yet, or the first connection attempt failed.
        case idle
        /// The thread is making its first connection.
        case connecting
        /// Listening (or, after a connection dropped, connecting again).
        case listening
        case stopped
    }

    private struct State {
        var phase = Phase.idle
        var observers: [UInt64: @Sendable (String) -> Void] = [:]
        var nextObserverID: UInt64 = 0
        /// `observe` calls waiting for the first connection, by observer id.
        var waiting: [UInt64: CheckedContinuation<Void, any Error>] = [:]
        /// Every tenant a notification named or the store served, to wake after a reconnection.
        var known: Set<String> = []
        var isThreadRunning = false
        /// `stop()` calls waiting for the thread to end.
        var stopWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Lock(State())
    private let url: String
    private let wakeup = WakeupPipe()

    init(url: String) { self.url = url }

    /// Calls `wake` with the tenant of every announced commit from now on; returns once the listener is
    /// listening, so that no commit after the call goes unheard.
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/syncUnavailable(reason:)`` when the first connection cannot be made
    ///   (a later call tries again), ``/BoutiqueDB/BoutiqueError/databaseClosed`` after ``stop()``.
    func observe(_ wake: @escaping @Sendable (String) -> Void) async throws {
        let id = state.withLock { state in
            state.nextObserverID &+= 1
            return state.nextObserverID
        }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            enum Next { case ready, closed, wait, start }
            let next: Next = state.withLock { state in
                switch state.phase {
                case .stopped: return .closed
                case .listening:
                    state.observers[id] = wake
                    return .ready
                case .connecting:
                    state.observers[id] = wake
                    state.waiting[id] = continuation
                    return .wait
                case .idle:
                    state.observers[id] = wake
                    state.waiting[id] = continuation
                    state.phase = .connecting
                    state.isThreadRunning = true
                    return .start
                }
            }
            switch next {
            case .ready: continuation.resume()
            case .closed: continuation.resume(throwing: BoutiqueError.databaseClosed)
            case .wait: break
            case .start:
                let thread = Thread { [self] in
                    // Named from the thread itself: on Linux only that reaches the system's name for it.
                    Thread.current.name = "BoutiqueSyncServer.listener"
                    run()
                }
                thread.start()
            }
        }
    }

    /// Adds `tenant` to those woken after a reconnection: a server may be waiting for its commits
    /// although no notification has named it yet. Until someone observes, nobody waits, and nothing
    /// is kept.
    func remember(_ tenant: String) {
        state.withLock { state in
            guard state.phase != .idle else { return }
            state.known.insert(tenant)
        }
    }

    /// Stops listening, waits for the thread to end, and closes its connection.
    func stop() async {
        requestStop()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let running = state.withLock { state in
                if state.isThreadRunning { state.stopWaiters.append(continuation) }
                return state.isThreadRunning
            }
            if !running { continuation.resume() }
        }
    }

    /// Tells the thread to end, without waiting for it (it closes its connection as it goes).
    func requestStop() {
        let waiting = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            state.phase = .stopped
            state.observers.removeAll()
            defer { state.waiting.removeAll() }
            return Array(state.waiting.values)
        }
        for continuation in waiting { continuation.resume(throwing: BoutiqueError.databaseClosed) }
        wakeup.signal()
    }

    // MARK: The thread

    private var isStopped: Bool { state.withLock { $0.phase == .stopped } }

    private func run() {
        var hasListened = false
        var delay = 0.1
        while !isStopped {
            let connection: PostgreSQLConnection
            do {
                // Named apart from the pool's connections, so an operator (or a test) tells the
                // listener in `pg_stat_activity` whatever statement it ran last.
                connection = try PostgreSQLConnection(url: url, applicationName: Self.applicationName)
                try connection.execute("LISTEN \(PostgreSQLStoreTransaction.channel)")
            } catch {
                if !hasListened {
                    failFirstConnection(error)
                    return
                }
                wakeup.wait(milliseconds: Int32(delay * 1000))
                delay = min(delay * 2, 5)
                continue
            }
            let (waiting, known) = state.withLock { state -> ([CheckedContinuation<Void, any Error>], Set<String>) in
                if state.phase == .connecting { state.phase = .listening }
                defer { state.waiting.removeAll() }
                return (Array(state.waiting.values), state.known)
            }
            for continuation in waiting { continuation.resume() }
            if hasListened { known.forEach(deliver) }
            hasListened = true
            delay = 0.1
            listen(on: connection)
        }
        let stopWaiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.isThreadRunning = false
            defer { state.stopWaiters.removeAll() }
            return state.stopWaiters
        }
        for continuation in stopWaiters { continuation.resume() }
    }

    /// The first connection failed: the observers waiting for it are told, and the thread ends.
    private func failFirstConnection(_ error: any Error) {
        let (waiting, stopWaiters) = state.withLock { state in
            if state.phase == .connecting { state.phase = .idle }
            for id in state.waiting.keys { state.observers.removeValue(forKey: id) }
            state.isThreadRunning = false
            defer {
                state.waiting.removeAll()
                state.stopWaiters.removeAll()
            }
            return (Array(state.waiting.values), state.stopWaiters)
        }
        for continuation in waiting { continuation.resume(throwing: error) }
        for continuation in stopWaiters { continuation.resume() }
    }

    /// Delivers notifications until the connection fails or the listener stops.
    private func listen(on connection: PostgreSQLConnection) {
        var silentSince = ContinuousClock.now
        while !isStopped {
            let socket = connection.socket
            guard socket >= 0 else { return }
            var descriptors = [
                pollfd(fd: socket, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wakeup.readEnd, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&descriptors, 2, 10_000)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if descriptors[1].revents != 0 { return }
            if ready == 0 {
                // Nothing for a while: ask the server something, so that a dead connection shows.
                if ContinuousClock.now - silentSince > .seconds(30) {
                    guard (try? connection.execute("SELECT 1")) != nil else { return }
                    silentSince = .now
                }
            } else if !connection.consumeInput() {
                return
            } else {
                silentSince = .now
            }
            while let notification = connection.nextNotification() {
                if notification.channel == PostgreSQLStoreTransaction.channel { deliver(notification.payload) }
            }
            if connection.isBroken { return }
        }
    }

    private func deliver(_ tenant: String) {
        let observers = state.withLock { state in
            state.known.insert(tenant)
            return Array(state.observers.values)
        }
        for wake in observers { wake(tenant) }
    }
}

/// A pipe whose write end tells the listener's thread, blocked in `poll`, to look up.
private final class WakeupPipe: Sendable {
    let readEnd: Int32
    private let writeEnd: Int32

    init() {
        var ends: [Int32] = [-1, -1]
        // Without a pipe (no file descriptors left) the thread still sees a stop within the poll's
        // timeout; only the wake-up is lost.
        if pipe(&ends) == 0 {
            _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
            _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        if readEnd >= 0 { close(readEnd) }
        if writeEnd >= 0 { close(writeEnd) }
    }

    /// Makes the read end readable, for good.
    func signal() {
        guard writeEnd >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Waits up to `milliseconds`, or until ``signal()``.
    func wait(milliseconds: Int32) {
        var descriptor = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
        _ = poll(&descriptor, 1, milliseconds)
    }
}
