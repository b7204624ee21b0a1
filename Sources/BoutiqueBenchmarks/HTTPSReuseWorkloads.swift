#if BOUTIQUE_SYNC_HTTP && os(Linux)
import BoutiqueDB
import BoutiqueSync
import BoutiqueSyncHTTP
import BoutiqueSyncServer
import CLibcurl
import Foundation

/// Requests per second over HTTPS on 127.0.0.1, with a connection (and TLS handshake) per request, as
/// the transport sent them before it kept its libcurl handles, against one kept handle whose
/// connection the next request reuses (``HTTPSyncTransport`` now), and the transport itself.
///
/// Both C variants send the same pull through `boutique_curl_perform`, the transport's own path: the
/// first with a handle of each request alone, the second with one kept handle. The server is a
/// ``SyncHTTPServer`` with TLS in this process, its certificate made with `openssl` for the run.
///
///     swift run -c release boutique-benchmarks --https-reuse
enum HTTPSReuseWorkloads {
    /// Requests a round sends.
    static let requests = 200

    static func run(rounds: Int) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("boutique-bench-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try makeCertificates(in: directory)
        let tls = try SyncHTTPTLS(
            certificateFile: directory.appendingPathComponent("server.pem"), privateKeyFile: directory.appendingPathComponent("server.key"))
        let store = try await SQLiteSyncStore.open(url: BoutiqueDB.inMemoryURL())
        let signer = try SyncTokenSigner(secret: SyncNetworkWorkloads.secret)
        let http = try SyncHTTPServer(server: SyncServer(store: store), signer: signer, tls: tls)
        let token = try signer.token(tenant: "bench", user: "ana", expiresAt: Date().addingTimeInterval(3_600))
        let authority = try Data(contentsOf: directory.appendingPathComponent("ca.pem"))
        let pull = PullRequest(replica: "bench", cursor: 0, limit: 100, waitMilliseconds: 0)
        let request = Request(
            url: http.url.appendingPathComponent("v1/pull").absoluteString, token: token, body: try SyncJSON.encoder().encode(pull),
            authority: authority)

        let kept = boutique_curl_handle_create()
        defer { boutique_curl_handle_destroy(kept) }
        let workload = Workload(name: "HTTPS pulls on 127.0.0.1, \(requests) a round", variants: [
            Variant(name: "a connection per request (before)") { try request.send(times: requests, through: nil) },
            Variant(name: "one kept handle (now)") { try request.send(times: requests, through: kept) },
        ])
        let timings = try Harness(rounds: rounds).measureReturningMedians(workload)
        let before = Double(requests) / timings[0]
        let now = Double(requests) / timings[1]
        print(String(format: "  requests/s: %.0f before, %.0f now: %.2f× as many", before, now, now / before))

        // The transport as a device uses it, for the same pulls.
        let transport = HTTPSyncTransport.http(http.url, token: token, trust: try .certificateAuthority(pem: String(decoding: authority, as: UTF8.self)))
        var samples: [Double] = []
        for _ in 0..<rounds {
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<requests { _ = try await transport.pull(pull) }
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        let median = samples.sorted()[samples.count / 2]
        print(String(format: "  HTTPSyncTransport.pull: %.0f requests/s (median of %d rounds), %.2f× the connection-per-request rate",
                     Double(requests) / median, rounds, Double(requests) / median / before))
        await http.shutdown(gracePeriod: .seconds(1))
        await store.close()
    }

    /// One pull as the transport sends it.
    struct Request {
        let url: String
        let token: String
        let body: Data
        let authority: Data

        /// Sends the pull `times` times, through `handle` (kept between requests) or, when `nil`, a
        /// handle of each request alone; returns the bytes received.
        func send(times: Int, through handle: UnsafeMutableRawPointer?) throws -> Int {
            var received = 0
            for _ in 0..<times { received += try sendOnce(through: handle) }
            return received / times
        }

        private func sendOnce(through handle: UnsafeMutableRawPointer?) throws -> Int {
            let lines = ["Authorization: Bearer \(token)", "Content-Type: \(SyncJSON.contentType)", "Accept: \(SyncJSON.contentType)"]
            var exchange = boutique_curl_exchange()
            let strings = ([url] + lines).map { strdup($0) }
            defer { strings.forEach { free($0) } }
            return try strings.dropFirst().map { UnsafePointer($0) }.withUnsafeBufferPointer { headers in
                try body.withUnsafeBytes { body in
                    try authority.withUnsafeBytes { authority in
                        exchange.url = UnsafePointer(strings[0])
                        exchange.headers = headers.baseAddress
                        exchange.header_count = headers.count
                        exchange.body = body.baseAddress
                        exchange.body_length = body.count
                        exchange.authorities = authority.baseAddress
                        exchange.authorities_length = authority.count
                        exchange.timeout_milliseconds = 30_000
                        exchange.handle = handle
                        let outcome = boutique_curl_perform(&exchange)
                        defer { boutique_curl_free(&exchange) }
                        guard outcome == BOUTIQUE_CURL_ANSWERED, exchange.status == 200 else {
                            throw BenchmarkFailure("the pull failed (\(outcome.rawValue), status \(exchange.status)): \(String(cString: boutique_curl_error(&exchange)))")
                        }
                        return exchange.response_length
                    }
                }
            }
        }
    }

    struct BenchmarkFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// A private authority and a certificate it signed for 127.0.0.1.
    private static func makeCertificates(in directory: URL) throws {
        func openssl(_ arguments: [String]) throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
            process.arguments = arguments
            process.currentDirectoryURL = directory
            process.standardError = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw BenchmarkFailure("openssl \(arguments.joined(separator: " ")) failed") }
        }
        let p256 = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
        try openssl(["req", "-x509"] + p256 + ["-days", "1", "-subj", "/CN=Benchmark CA", "-keyout", "ca.key", "-out", "ca.pem"])
        try openssl(["req"] + p256 + ["-subj", "/CN=127.0.0.1", "-keyout", "server.key", "-out", "server.csr"])
        try Data("subjectAltName=IP:127.0.0.1\n".utf8).write(to: directory.appendingPathComponent("san.ext"))
        try openssl([
            "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-days", "1",
            "-extfile", "san.ext", "-out", "server.pem",
        ])
    }
}
#endif
