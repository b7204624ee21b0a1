import BoutiqueDB
import BoutiqueSync
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A server's memory and service under clients that do not play along, from several loopback
/// addresses (127.0.0.1 to 127.0.0.16 all reach the server on Linux):
///
/// - stalled readers: `BOUTIQUE_BENCH_STALLED_READERS` clients (1,000 by default, fewer when the
///   open-file limit is lower: the line says so) from 16 addresses, each sending a pull whose answer is
///   a full page (4 MB of rows, 6 MB of JSON) with a receive buffer of 4 KB, and then never reading; the server's
///   resident memory before and after, and whether another tenant's pull is still answered;
/// - slow connections: 1,000 connections from 16 addresses sending a request head a byte at a time
///   and never finishing it, and meanwhile 50 normal requests from one of those addresses, one after
///   another: how many are answered within 5 s and their p50 and p99.
///
/// The server is started with its default limits (only its connection limit is set, to 1,000 plus
/// room for the normal requests).
///
///     swift run -c release boutique-benchmarks --server-memory
///     swift run -c release boutique-benchmarks --once server-memory.clients    these two only
///
/// The targets: 1,000 stalled readers leave the server under 512 MB; the normal requests' p99 under the
/// slow connections is at most 1 s.
enum AbusiveClientWorkloads {
    static let addresses = 16
    static let noteBytes = 2_048
    /// Enough rows for a full page, the answer of a pull from the start.
    static let notes = 2_500

    static func run() async throws {
        #if canImport(Glibc)
        try await stalledReaders()
        try await slowConnections()
        #else
        print("\nthe stalled-reader and slow-connection workloads run on Linux only")
        #endif
    }

    #if canImport(Glibc)
    static func stalledReaders() async throws {
        let wanted = ProcessInfo.processInfo.environment["BOUTIQUE_BENCH_STALLED_READERS"].flatMap(Int.init) ?? 1_000
        let files = FileLimit.raise()
        let clients = max(1, min(wanted, files - 256))
        let server = try ServerProcess(store: "sqlite", settings: ServerProcess.Settings(connectionLimit: 1_100, defaultAddressLimits: true))
        defer { server.stop() }
        let url = try await server.url()
        guard let port = url.port else { throw BoutiqueError.invalidArgument("no port in \(url)") }
        let tenant = "stalled-\(UUID().uuidString)"
        let (writer, sync) = try await SyncNetworkWorkloads.device(url: url, tenant: tenant, user: "writer")
        let body = String(repeating: "x", count: noteBytes)
        try await writer.write { conn in
            for row in 0..<notes {
                try conn.execute("INSERT INTO note(id, title, body, rank) VALUES (?, ?, ?, ?)",
                                 [.text("n\(row)"), .text("note \(row)"), .text(body), .integer(Int64(row))])
            }
        }
        _ = try await sync.push()
        await writer.close()
        try await Task.sleep(for: .seconds(2))
        let idle = server.residentBytes()
        let token = try SyncNetworkWorkloads.token(tenant: tenant, user: "reader")
        var sockets: [Int32] = []
        defer { for socket in sockets { close(socket) } }
        var refused = 0
        let start = SyncNetworkWorkloads.now()
        for index in 0..<clients {
            let request = try pull(port: port, token: token, replica: "stalled-\(index)", limit: 100_000)
            do {
                sockets.append(try LoopbackSocket.connect(
                    port: port, from: 1 + index % addresses, receiveBuffer: 4_096, sending: request))
            } catch {
                refused += 1
            }
        }
        // Every client's answer begun (or its connection closed), or five minutes gone.
        var statuses = LoopbackSocket.statuses(sockets)
        while statuses.counts["none", default: 0] > 0, SyncNetworkWorkloads.now() - start < 300 {
            try await Task.sleep(for: .seconds(1))
            statuses = LoopbackSocket.statuses(sockets)
        }
        let held = server.residentBytes()
        let seconds = SyncNetworkWorkloads.now() - start
        // Another tenant's device: tenants take turns at the store, so the stalled pulls still being
        // read from it do not stand in its way.
        let other = try SyncNetworkWorkloads.token(tenant: "other-\(UUID().uuidString)", user: "device")
        let normal = try LoopbackSocket.exchange(
            port: port, from: 100, request: pull(port: port, token: other, replica: "normal", limit: 10), timeout: 10)
        print("\n\(clients) stalled readers (of \(wanted) wanted; open-file limit \(files)) from \(addresses) addresses, each a pull of a full page, never read")
        print(String(format: "  server memory %.1f MB idle, %.1f MB with the readers stalled (%.1f MB a reader), peak %.1f MB; %.1f s",
                     mb(idle), mb(held), mb(held - idle) / Double(max(clients, 1)), mb(server.peakBytes()), seconds))
        print("  answers begun: \(statuses.counts.map { "\($0.key) × \($0.value)" }.sorted().joined(separator: ", ")); "
              + "the largest \(statuses.largestBody) bytes; \(refused) connections refused")
        print("  another tenant's pull meanwhile: \(normal.map { "\($0.status) in \(String(format: "%.0f", $0.seconds * 1_000)) ms" } ?? "no answer within 10 s")")
        print(String(format: "  target: under 512 MB with the readers stalled: %@", held < 512 << 20 ? "met" : "NOT met"))
    }

    static func slowConnections() async throws {
        let slow = 1_000
        let files = FileLimit.raise()
        guard files > slow + 256 else {
            print("\nthe slow-connection workload needs \(slow + 256) open files; the limit is \(files)")
            return
        }
        let server = try ServerProcess(store: "sqlite", settings: ServerProcess.Settings(connectionLimit: 1_000, defaultAddressLimits: true))
        defer { server.stop() }
        let url = try await server.url()
        guard let port = url.port else { throw BoutiqueError.invalidArgument("no port in \(url)") }
        let token = try SyncNetworkWorkloads.token(tenant: "slow-\(UUID().uuidString)", user: "device")
        let trickle = Trickle(port: port, connections: slow, addresses: addresses)
        trickle.start()
        defer { trickle.stop() }
        try await Task.sleep(for: .seconds(3))
        var times: [Double] = []
        var failed = 0
        for index in 0..<50 {
            let request = try pull(port: port, token: token, replica: "normal-\(index)", limit: 10)
            if let answer = try LoopbackSocket.exchange(port: port, from: 1, request: request, timeout: 5), answer.status == 200 {
                times.append(answer.seconds)
            } else {
                failed += 1
            }
        }
        print("\n\(slow) slow connections from \(addresses) addresses (a request head sent a byte at a time), 50 normal pulls from 127.0.0.1 meanwhile")
        print("  slow connections open at the end: \(trickle.open) of \(slow) (\(trickle.closed) closed by the server, \(trickle.refused) refused)")
        BenchmarkStatistics.printLatencies("a normal pull, connect → answer", times)
        print("  \(times.count) of 50 answered 200 within 5 s\(failed > 0 ? "; \(failed) not" : "")")
        let sorted = times.sorted()
        let p99 = sorted.isEmpty ? .infinity : sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))]
        print(String(format: "  target: every pull answered, p99 ≤ 1 s: %@", failed == 0 && p99 <= 1 ? "met" : "NOT met"))
    }

    /// The bytes of a pull request.
    static func pull(port: Int, token: String, replica: String, limit: Int) throws -> [UInt8] {
        let body = try SyncJSON.encoder().encode(PullRequest(replica: replica, cursor: 0, limit: limit))
        let head = "POST /v1/pull HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAuthorization: Bearer \(token)\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n"
        return Array(head.utf8) + Array(body)
    }

    /// Connections that send a request head a byte at a time, one byte on each every half second.
    final class Trickle: @unchecked Sendable {
        // Safe: the counters and `running` are under `lock`; the sockets are the thread's own.
        private let port: Int
        private let connections: Int
        private let addresses: Int
        private let lock = NSLock()
        private var running = true
        private var counts = (open: 0, closed: 0, refused: 0)

        init(port: Int, connections: Int, addresses: Int) {
            self.port = port
            self.connections = connections
            self.addresses = addresses
        }

        var open: Int { lock.withLock { counts.open } }
        var closed: Int { lock.withLock { counts.closed } }
        var refused: Int { lock.withLock { counts.refused } }

        func start() {
            Thread.detachNewThread { [self] in
                var sockets: [(socket: Int32, sent: Int)] = []
                let head = Array("POST /v1/pull HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: \(String(repeating: "p", count: 4_000))".utf8)
                for index in 0..<connections {
                    if let socket = try? LoopbackSocket.connect(port: port, from: 1 + index % addresses, sending: []) {
                        sockets.append((socket, 0))
                    } else {
                        lock.withLock { counts.refused += 1 }
                    }
                }
                while lock.withLock({ running }) {
                    var closedNow = 0
                    sockets.removeAll { entry in
                        let byte = head[entry.sent % head.count]
                        let sent = withUnsafeBytes(of: byte) { send(entry.socket, $0.baseAddress, 1, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
                        if sent < 0 && errno != EAGAIN {
                            close(entry.socket)
                            closedNow += 1
                            return true
                        }
                        return false
                    }
                    for index in sockets.indices { sockets[index].sent += 1 }
                    lock.withLock {
                        counts.closed += closedNow
                        counts.open = sockets.count
                    }
                    usleep(500_000)
                }
                for entry in sockets { close(entry.socket) }
            }
        }

        func stop() { lock.withLock { running = false } }
    }

    static func mb(_ bytes: Int) -> Double { Double(bytes) / 1_048_576 }
    #endif
}

#if canImport(Glibc)
/// Blocking TCP sockets to the server from a chosen loopback address, 127.0.0.N.
enum LoopbackSocket {
    /// A socket from 127.0.0.`from` connected to `port` that has sent `request` whole; with
    /// `receiveBuffer`, its receive buffer is set that small before it connects.
    static func connect(port: Int, from: Int, receiveBuffer: Int? = nil, sending request: [UInt8]) throws -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw BoutiqueError.invalidArgument("socket() failed: errno \(errno)") }
        if var size = receiveBuffer.map(Int32.init) {
            setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = inet_addr("127.0.0.\(from)")
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &local) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        let connected = bound == 0 && withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        } == 0
        guard connected else {
            close(socket)
            throw BoutiqueError.invalidArgument("connect() failed: errno \(errno)")
        }
        var sent = 0
        while sent < request.count {
            let count = request[sent...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else {
                close(socket)
                throw BoutiqueError.invalidArgument("send() failed: errno \(errno)")
            }
            sent += count
        }
        return socket
    }

    /// One request on a new connection from 127.0.0.`from`: the answer's status and the seconds from
    /// connecting to its status line, `nil` when none came within `timeout` seconds.
    static func exchange(port: Int, from: Int, request: [UInt8], timeout: Double) throws -> (status: Int, seconds: Double)? {
        let start = SyncNetworkWorkloads.now()
        guard let socket = try? connect(port: port, from: from, sending: request) else { return nil }
        defer { close(socket) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while SyncNetworkWorkloads.now() - start < timeout {
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 100) > 0 else { continue }
            let count = recv(socket, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            received += buffer[0..<count]
            if received.count >= 12, let status = Int(String(decoding: received[9..<12], as: UTF8.self)) {
                return (status, SyncNetworkWorkloads.now() - start)
            }
        }
        return nil
    }

    /// How many of `sockets` have an answer begun, by its status ("none" for no answer, "closed" for a
    /// connection closed without one), and the largest body they announce, peeked at without reading
    /// them.
    static func statuses(_ sockets: [Int32]) -> (counts: [String: Int], largestBody: Int) {
        var counts: [String: Int] = [:]
        var largest = 0
        var buffer = [UInt8](repeating: 0, count: 1_024)
        for socket in sockets {
            let count = recv(socket, &buffer, buffer.count, Int32(MSG_PEEK | MSG_DONTWAIT))
            let key = count >= 12 ? String(decoding: buffer[9..<12], as: UTF8.self) : count == 0 ? "closed" : "none"
            counts[key, default: 0] += 1
            guard count > 0 else { continue }
            let head = String(decoding: buffer[0..<count], as: UTF8.self).lowercased()
            if let range = head.range(of: "content-length: "),
                let length = Int(head[range.upperBound...].prefix { $0.isNumber }) {
                largest = max(largest, length)
            }
        }
        return (counts, largest)
    }
}
#endif
