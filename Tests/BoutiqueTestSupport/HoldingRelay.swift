import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A TCP relay on 127.0.0.1 that forwards every connection to a server, and holds requests: from the
/// one carrying the `occurrence`-th appearance of `marker` in what clients send (counted across all
/// connections) until ``release()``. A held request is never forwarded, so its client waits for an
/// answer that does not come (and one it sends again after a timeout is held too), which puts a child
/// process at a known point for as long as a test needs, however slow the machine: a test that reacts
/// to a child's output instead races the child on a busy machine.
///
/// After ``release()``, requests pass again, so a later client reaches the server through the same
/// address. A held connection ends when its client closes it, or at ``dropHeld()``.
///
/// It also counts the connections clients opened (``connectionsAccepted``): how many a client made
/// for its requests, which a TLS server cannot tell a test as simply; and the bytes they sent
/// (``bytesFromClients``).
public final class HoldingRelay: @unchecked Sendable {
    /// The port clients connect to.
    public let port: Int
    private let listener: Int32
    private let target: Int
    private let marker: [UInt8]
    private let occurrence: Int
    private let lock = NSLock()
    private var seen = 0
    private var accepted = 0
    private var clientBytes = 0
    private var released = false
    private var stopped = false
    private var heldConnections: [Connection] = []

    public init(forwardingTo targetPort: Int, holding marker: String, occurrence: Int) throws {
        target = targetPort
        self.marker = Array(marker.utf8)
        self.occurrence = occurrence
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw RelayError("socket: errno \(errno)") }
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, Glibc.listen(listener, 64) == 0 else {
            close(listener)
            throw RelayError("bind/listen: errno \(errno)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        self.listener = listener
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// A relay that holds nothing: it forwards, and counts connections.
    public convenience init(forwardingTo targetPort: Int) throws {
        try self.init(forwardingTo: targetPort, holding: "", occurrence: 1)
    }

    /// The connections clients opened through the relay so far.
    public var connectionsAccepted: Int {
        lock.lock()
        defer { lock.unlock() }
        return accepted
    }

    /// The bytes clients sent through the relay so far, heads and bodies: what a client's requests
    /// cost on the wire, whatever became of them.
    public var bytesFromClients: Int {
        lock.lock()
        defer { lock.unlock() }
        return clientBytes
    }

    /// Lets requests pass from now on. Those already held stay held.
    public func release() {
        lock.lock()
        released = true
        lock.unlock()
    }

    /// Ends every held connection as a server that went away would: its client reads the end of the
    /// connection, with no answer.
    public func dropHeld() {
        lock.lock()
        let held = heldConnections
        heldConnections = []
        lock.unlock()
        for connection in held { connection.endClient() }
    }

    /// Stops accepting connections. Connections already relayed end with their clients.
    public func stop() {
        lock.lock()
        stopped = true
        lock.unlock()
        shutdown(listener, Int32(SHUT_RDWR))
    }

    deinit { close(listener) }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            lock.lock()
            let done = stopped
            if !done { accepted += 1 }
            lock.unlock()
            if done {
                close(client)
                return
            }
            let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = Self.loopback(port: target)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else {
                close(server)
                close(client)
                continue
            }
            // Each direction on its own thread. The sockets are closed once both are done. A held
            // connection is not ended when the server ends it (an idle connection's timeout): its
            // client keeps waiting until it closes the connection itself.
            let connection = Connection(client: client, server: server)
            Thread.detachNewThread { [self] in
                forward(from: client, to: server, holding: connection)
                shutdown(server, Int32(SHUT_RDWR))
                connection.finish()
            }
            Thread.detachNewThread { [self] in
                forward(from: server, to: client, holding: nil)
                if !connection.isHeld { shutdown(client, Int32(SHUT_RDWR)) }
                connection.finish()
            }
        }
    }

    /// Copies bytes from `source` to `destination` until `source` ends. Bytes a client sends are
    /// watched for the marker (a marker split between two reads is found too); once a held
    /// occurrence goes by, nothing more is forwarded on that connection, and what the client sends
    /// is read and dropped until it closes.
    private func forward(from source: Int32, to destination: Int32, holding connection: Connection?) {
        var tail: [UInt8] = []
        var holding = false
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { break }
            if connection != nil {
                lock.lock()
                clientBytes += count
                lock.unlock()
            }
            if holding { continue }
            if let connection {
                // The tail is shorter than the marker, so what it holds was not counted yet.
                let window = tail + buffer[..<count]
                let found = occurrences(in: window)
                tail = Array(window.suffix(max(marker.count - 1, 0)))
                if found > 0 {
                    lock.lock()
                    seen += found
                    let hold = !released && seen >= occurrence
                    if hold { heldConnections.append(connection) }
                    lock.unlock()
                    if hold {
                        holding = true
                        connection.hold()
                        continue
                    }
                }
            }
            var sent = 0
            while sent < count {
                let written = buffer.withUnsafeBytes { send(destination, $0.baseAddress! + sent, count - sent, Int32(MSG_NOSIGNAL)) }
                if written < 0, errno == EINTR { continue }
                if written <= 0 { return }
                sent += written
            }
        }
    }

    /// How many times the marker occurs in `bytes`. With `memchr` and `memcmp`, not a slice compared
    /// at every position: the relay runs in a debug build, where that took about a second per MiB, and
    /// on a loaded machine a large upload through the relay crawled at a third of a MiB a second.
    private func occurrences(in bytes: [UInt8]) -> Int {
        guard let first = marker.first, bytes.count >= marker.count else { return 0 }
        return bytes.withUnsafeBufferPointer { haystack in
            marker.withUnsafeBufferPointer { needle in
                guard let base = haystack.baseAddress, let pattern = needle.baseAddress else { return 0 }
                let last = haystack.count - needle.count
                var found = 0
                var start = 0
                while start <= last, let hit = memchr(base + start, Int32(first), last - start + 1) {
                    let position = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
                    if memcmp(hit, pattern, needle.count) == 0 { found += 1 }
                    start = position + 1
                }
                return found
            }
        }
    }
}

/// One relayed connection's sockets, closed when both directions are done.
private final class Connection: @unchecked Sendable {
    let client: Int32
    let server: Int32
    private let lock = NSLock()
    private var held = false
    private var finished = 0

    init(client: Int32, server: Int32) {
        self.client = client
        self.server = server
    }

    var isHeld: Bool {
        lock.lock()
        defer { lock.unlock() }
        return held
    }

    func hold() {
        lock.lock()
        held = true
        lock.unlock()
    }

    /// Shuts the client's side down (the socket is closed in ``finish()``, once both directions end).
    func endClient() {
        lock.lock()
        defer { lock.unlock() }
        if finished < 2 { shutdown(client, Int32(SHUT_RDWR)) }
    }

    func finish() {
        lock.lock()
        finished += 1
        let both = finished == 2
        lock.unlock()
        if both {
            close(client)
            close(server)
        }
    }
}

/// Why a ``HoldingRelay`` could not start.
public struct RelayError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
