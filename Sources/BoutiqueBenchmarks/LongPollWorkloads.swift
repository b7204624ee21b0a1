import BoutiqueDB
import BoutiqueSync
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Many long polls waiting on one server, woken by one push: a server process (its own RSS) gets
/// 10,000 HTTP pulls with a long wait from raw sockets of this process (`BOUTIQUE_BENCH_LONG_POLLS`
/// sets another count), each parked until a change comes; then one push, and for each poll the time
/// from sending the push to the poll's first answer byte (an upper bound of commit → answer, the push
/// including its own commit). Prints the server's memory idle and with every poll waiting, and the
/// wake-up's p50, p99 and max.
///
///     swift run -c release boutique-benchmarks --long-polls
///
/// The targets: 10,000 waiting polls in at most 300 MB, and the push waking all of them with p99 ≤ 1 s.
enum LongPollWorkloads {
    static func run() async throws {
        #if canImport(Glibc)
        let polls = ProcessInfo.processInfo.environment["BOUTIQUE_BENCH_LONG_POLLS"].flatMap(Int.init) ?? 10_000
        let files = FileLimit.raise()
        guard files > polls + 256 else {
            print("\n--long-polls needs \(polls + 256) open files; the limit is \(files) (raise the hard limit: ulimit -Hn)")
            return
        }
        let server = try ServerProcess(
            store: "sqlite", settings: ServerProcess.Settings(connectionLimit: polls + 256, maximumWaitMilliseconds: 300_000))
        defer { server.stop() }
        let url = try await server.url()
        guard let port = url.port else { throw BoutiqueError.invalidArgument("no port in \(url)") }
        try await Task.sleep(for: .seconds(1))
        let idle = server.residentBytes()
        let tenant = "long-polls-\(UUID().uuidString)"
        let token = try SyncNetworkWorkloads.token(tenant: tenant, user: "poller")

        let opening = SyncNetworkWorkloads.now()
        var sockets: [Int32] = []
        sockets.reserveCapacity(polls)
        defer { for socket in sockets { close(socket) } }
        for index in 0..<polls {
            let body = try SyncJSON.encoder().encode(
                PullRequest(replica: "poller-\(index)", cursor: 0, limit: 10, waitMilliseconds: 240_000))
            let head = "POST /v1/pull HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAuthorization: Bearer \(token)\r\n"
                + "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n"
            sockets.append(try RawSocket.connect(port: port, sending: Array(head.utf8) + Array(body)))
        }
        let opened = SyncNetworkWorkloads.now() - opening
        // Parked when the server's CPU time stops growing.
        var cpu = server.cpuSeconds()
        while true {
            try await Task.sleep(for: .milliseconds(500))
            let now = server.cpuSeconds()
            defer { cpu = now }
            if now - cpu < 0.02 { break }
        }
        let early = RawSocket.readable(sockets)
        let waiting = server.residentBytes()
        let threads = ProcessUsage.threads(of: server.pid)

        let answers = RawSocket.Answers(sockets)
        let readers = answers.start(threads: 4, timeout: 60)
        let (pusher, sync) = try await SyncNetworkWorkloads.device(url: url, tenant: tenant, user: "pusher")
        try await pusher.write { conn in try conn.execute("INSERT INTO note(id, title, rank) VALUES ('wake', 'up', 1)") }
        let pushStart = SyncNetworkWorkloads.now()
        answers.setOrigin(pushStart)
        _ = try await sync.push()
        let pushSeconds = SyncNetworkWorkloads.now() - pushStart
        let arrivals = await readers.value
        await pusher.close()

        print("\n\(polls) long polls waiting on one server (SQLite store), woken by one push")
        print(String(format: "  opened in %.1f s; server memory %.1f MB idle, %.1f MB with the polls waiting (%.1f KB a poll), %d threads",
                     opened, mb(idle), mb(waiting), Double(waiting - idle) / Double(polls) / 1_024, threads))
        if early > 0 { print("  ! \(early) polls were answered before the push") }
        print(String(format: "  the push took %.1f ms to be acknowledged", pushSeconds * 1_000))
        BenchmarkStatistics.printLatencies("push sent → a poll's answer", arrivals.times)
        if arrivals.times.count != polls { print("  ! \(arrivals.times.count) of \(polls) polls answered within 60 s") }
        if arrivals.failures > 0 { print("  ! \(arrivals.failures) answers were not 200") }
        #else
        print("\n--long-polls runs on Linux only")
        #endif
    }

    static func mb(_ bytes: Int) -> Double { Double(bytes) / 1_048_576 }
}

#if canImport(Glibc)
/// Plain blocking TCP sockets to 127.0.0.1, cheap enough to hold thousands.
enum RawSocket {
    /// A socket connected to `port` that has sent `request` whole.
    static func connect(port: Int, sending request: [UInt8]) throws -> Int32 {
        try LoopbackSocket.connect(port: port, from: 1, sending: request)
    }

    /// How many of `sockets` have something to read now.
    static func readable(_ sockets: [Int32]) -> Int {
        var descriptors = sockets.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        return Int(poll(&descriptors, nfds_t(descriptors.count), 0))
    }

    /// When each socket's answer began, read by a few threads polling their share of the sockets.
    final class Answers: @unchecked Sendable {
        // Safe: `origin` is set once before any answer can come and read after; each thread owns its
        // slice of the sockets and appends to `collected` under `lock`.
        private let sockets: [Int32]
        private let lock = NSLock()
        private var collected: (times: [Double], failures: Int) = ([], 0)
        private var origin = 0.0

        init(_ sockets: [Int32]) { self.sockets = sockets }

        func setOrigin(_ time: Double) {
            lock.withLock { origin = time }
        }

        /// Starts `threads` threads that wait up to `timeout` seconds for every answer; the task ends
        /// with the times from the origin and the number of answers that were not 200.
        func start(threads: Int, timeout: Double) -> Task<(times: [Double], failures: Int), Never> {
            let group = DispatchGroup()
            let share = (sockets.count + threads - 1) / threads
            for start in stride(from: 0, to: sockets.count, by: share) {
                let slice = Array(sockets[start..<min(start + share, sockets.count)])
                group.enter()
                Thread.detachNewThread { [self] in
                    read(slice, timeout: timeout)
                    group.leave()
                }
            }
            return Task {
                await withCheckedContinuation { continuation in group.notify(queue: .global()) { continuation.resume() } }
                return lock.withLock { (collected.times.map { $0 - origin }, collected.failures) }
            }
        }

        private func read(_ slice: [Int32], timeout: Double) {
            var waiting = slice.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let deadline = SyncNetworkWorkloads.now() + timeout
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while !waiting.isEmpty, SyncNetworkWorkloads.now() < deadline {
                guard poll(&waiting, nfds_t(waiting.count), 100) > 0 else { continue }
                let now = SyncNetworkWorkloads.now()
                var times: [Double] = []
                var failures = 0
                waiting.removeAll { descriptor in
                    guard descriptor.revents != 0 else { return false }
                    let count = recv(descriptor.fd, &buffer, buffer.count, 0)
                    times.append(now)
                    if count < 12 || !String(decoding: buffer[0..<max(0, min(count, 12))], as: UTF8.self).hasPrefix("HTTP/1.1 200") {
                        failures += 1
                    }
                    return true
                }
                lock.withLock {
                    collected.times += times
                    collected.failures += failures
                }
            }
        }
    }
}
#endif
