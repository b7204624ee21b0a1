// The HTTP front end is part of the package where GNU libmicrohttpd is installed; so are its tests.
#if BOUTIQUE_SYNC_HTTP
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A TCP connection to a server on this machine from a chosen source address (Linux routes all of
/// 127/8 to the loopback interface, so 127.0.0.2 is another client to the server than 127.0.0.1),
/// written and read a piece at a time with blocking calls: for clients that misbehave on purpose. Run
/// its calls off the cooperative pool (``onThread(_:)``).
final class RawConnection: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        let call: String
        let code: Int32
        var description: String { "\(call): errno \(code)" }
    }

    let descriptor: Int32

    /// Connects from `source` to 127.0.0.1:`port`; receives wait at most `timeout` (times the run's
    /// timeout scale; a minute by default, so that only a hang misses it on a loaded machine). With `receiveBuffer`, the socket's receive buffer is that small (the system's
    /// least at most), so that a client that does not read leaves its answer with the server.
    init(port: Int, from source: String = "127.0.0.1", timeout: Duration = .seconds(60), receiveBuffer: Int? = nil) throws {
        #if canImport(Glibc)
            descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw Failure(call: "socket", code: errno) }
        if var size = receiveBuffer.map(Int32.init) {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = inet_addr(source)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            close(descriptor)
            throw Failure(call: "bind", code: errno)
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(descriptor)
            throw Failure(call: "connect", code: errno)
        }
        let seconds = Double(timeout.components.seconds) * syncTimeoutScale
        var limit = timeval(tv_sec: Int(seconds), tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(descriptor) }

    /// A thread sending one byte (an `a`, as of a header name sent slowly) on each of `connections`
    /// every `interval` until stopped: they stay busy, never finishing their requests.
    static func dribble(_ connections: [RawConnection], every interval: Duration) -> Dribbling {
        let dribbling = Dribbling()
        Thread.detachNewThread {
            while !dribbling.isStopped.load(ordering: .acquiring) {
                for connection in connections where !connection.isClosedByServer { connection.send("a") }
                let deadline = ContinuousClock.now + interval
                while ContinuousClock.now < deadline, !dribbling.isStopped.load(ordering: .acquiring) {
                    Thread.sleep(forTimeInterval: 0.05)
                }
            }
        }
        return dribbling
    }

    /// Stops a ``dribble(_:every:)`` thread.
    final class Dribbling: Sendable {
        fileprivate let isStopped = Atomic(false)
        func stop() { isStopped.store(true, ordering: .releasing) }
    }

    /// Sends `text` whole; false when the connection is closed or reset.
    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Sends `bytes` whole; false when the connection is closed or reset.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    /// What the server sends until it closes the connection (or resets it: what came before).
    ///
    /// - Throws: ``Failure`` with `EAGAIN` when it neither sends nor closes within the timeout.
    func receiveUntilClosed() throws -> String {
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == ECONNRESET { break }
                throw Failure(call: "recv", code: errno)
            }
            answer += buffer.prefix(count)
        }
        return String(decoding: answer, as: UTF8.self)
    }

    /// Whether the server has sent something, or closed the connection, without waiting or reading it.
    var hasSomethingToRead: Bool {
        var byte: UInt8 = 0
        let count = recv(descriptor, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return count >= 0 || (errno != EAGAIN && errno != EWOULDBLOCK)
    }

    /// Whether the server has closed (or reset) the connection, without waiting.
    var isClosedByServer: Bool {
        var byte: UInt8 = 0
        let count = recv(descriptor, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
    }

    /// Runs `body` on a thread of its own, as blocking socket calls must not hold the test's task pool.
    static func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }
}
#endif
