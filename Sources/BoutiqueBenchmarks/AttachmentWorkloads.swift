import BoutiqueDB
import BoutiqueSQLite
import BoutiqueSync
import BoutiqueSyncServer
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What attachments cost over HTTP on 127.0.0.1, the server a separate process keeping them in a folder:
///
/// - one large attachment uploaded by a device and fetched by another: the time, and the peak memory of
///   the device (this process) and of the server above what they held before;
/// - the same bytes fetched by `curl`, in the same ranges from the same server, to /dev/null: the
///   device's download against a client that only receives (the device also writes, syncs and hashes);
/// - a new device pulling 10,000 rows that point at attachments, against the same rows whose column
///   holds text of the same length: what the server's pointers cost a pull (bytes are not pulled).
///
///     swift run -c release boutique-benchmarks --attachments                  a 1 GiB attachment
///     swift run -c release boutique-benchmarks --attachments --attachment-mib 256
enum AttachmentWorkloads {
    static let schema = BoutiqueMigrationPlan {
        BoutiqueMigration("v1_photo") { conn in
            try conn.execute("CREATE TABLE photo(id TEXT PRIMARY KEY NOT NULL, caption TEXT NOT NULL, image TEXT)")
        }
    }

    static func run(mebibytes: Int, rounds: Int) async throws {
        var settings = ServerProcess.Settings()
        settings.keepsAttachments = true
        let server = try ServerProcess(store: "sqlite", settings: settings)
        defer { server.stop() }
        let url = try await server.url()
        print("\nattachments over HTTP on 127.0.0.1 — the server a separate process, bytes in a folder")
        try await largeTransfer(server: server, url: url, bytes: Int64(mebibytes) << 20)
        try await pulls(url: url, rows: 10_000, rounds: max(3, min(rounds, 5)))
    }

    // MARK: One large attachment

    static func largeTransfer(server: ServerProcess, url: URL, bytes: Int64) async throws {
        let tenant = "large-\(UUID().uuidString)"
        let source = FileManager.default.temporaryDirectory.appendingPathComponent("boutique-bench-attachment-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: source) }
        try writePseudoRandomFile(at: source, bytes: bytes)

        let a = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: schema)
        let image = try await a.attachments.store(contentsOf: source, contentType: "application/octet-stream")
        let value = String(decoding: try JSONEncoder().encode(image), as: UTF8.self)
        try await a.write { conn in try conn.execute("INSERT INTO photo VALUES ('p1', 'large', ?)", [.text(value)]) }
        // Named without models: the column holding an attachment is found in its rows.
        let syncA = try await BoutiqueSync(
            database: a, tables: ["photo"], server: .http(url, token: try SyncNetworkWorkloads.token(tenant: tenant, user: "a")))
        _ = try await syncA.push()

        let upload = try await MemoryPeaks.during(server: server.pid) { _ = try await syncA.attachments.uploadWaiting() }

        let b = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: schema)
        let token = try SyncNetworkWorkloads.token(tenant: tenant, user: "a")
        let syncB = try await BoutiqueSync(database: b, tables: ["photo"], server: .http(url, token: token))
        _ = try await syncB.synchronize()
        let download = try await MemoryPeaks.during(server: server.pid) { try await syncB.attachments.fetch(image, waitingForUpload: false) }
        guard try await b.attachments.state(of: image) == .local else { throw BoutiqueError.attachmentNotFound(id: image.id) }

        let curl = try curlFetch(url: url, token: token, id: image.id, bytes: bytes)
        let mib = Double(bytes) / Double(1 << 20)
        print(String(format: "  %.0f MiB uploaded:   %.2f s (%.0f MiB/s); peak above idle: device %@, server %@",
                     mib, upload.seconds, mib / upload.seconds, megabytes(upload.device), megabytes(upload.server)))
        print(String(format: "  %.0f MiB downloaded: %.2f s (%.0f MiB/s); peak above idle: device %@, server %@",
                     mib, download.seconds, mib / download.seconds, megabytes(download.device), megabytes(download.server)))
        print(String(format: "  the same ranges with curl to /dev/null: %.2f s (%.0f MiB/s): the device's download at %.2f× curl's throughput",
                     curl, mib / curl, curl / download.seconds))
        await a.close()
        await b.close()
    }

    /// `bytes` of a xorshift sequence (not compressible, not all alike), written a MiB at a time.
    static func writePseudoRandomFile(at url: URL, bytes: Int64) throws {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw BoutiqueError.fileSystem(path: url.path, message: "cannot be created")
        }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var written: Int64 = 0
        var chunk = [UInt64](repeating: 0, count: (1 << 20) / 8)
        while written < bytes {
            for index in chunk.indices {
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                chunk[index] = state
            }
            let count = Int(min(Int64(1 << 20), bytes - written))
            try chunk.withUnsafeBytes { try handle.write(contentsOf: Data($0.prefix(count))) }
            written += Int64(count)
        }
    }

    /// Fetches the attachment's bytes with one `curl` process, in the ranges the device asks for, over
    /// one kept connection; returns the seconds it took.
    static func curlFetch(url: URL, token: String, id: String, bytes: Int64) throws -> Double {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("boutique-bench-curl-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: config) }
        var lines = ["silent", "fail", "header = \"Authorization: Bearer \(token)\""]
        let piece = Int64(AttachmentTransfer.pieceBytes)
        var offset: Int64 = 0
        while offset < bytes {
            lines.append("url = \"\(url.absoluteString)/v1/attachments/\(id)/bytes?offset=\(offset)&length=\(piece)\"")
            lines.append("output = \"/dev/null\"")
            offset += piece
        }
        try lines.joined(separator: "\n").write(to: config, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["curl", "-K", config.path]
        let start = SyncNetworkWorkloads.now()
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BoutiqueError.syncUnavailable(reason: "curl ended with status \(process.terminationStatus)")
        }
        return SyncNetworkWorkloads.now() - start
    }

    static func megabytes(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1e6) }

    // MARK: Pulls of rows pointing at attachments

    /// A new device's pull of `rows` rows whose `image` holds an attachment, against the same rows
    /// holding text of the same length in a column that holds no attachment; medians of `rounds`, the
    /// two interleaved.
    static func pulls(url: URL, rows: Int, rounds: Int) async throws {
        var tenants: [Bool: String] = [:]
        for pointing in [false, true] {
            let tenant = "pulls-\(pointing)-\(UUID().uuidString)"
            let writer = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: schema)
            try await writer.write { conn in
                for index in 0..<rows {
                    let digest = String(format: "%064x", index)
                    // The same bytes but for one key's name: only the first is an attachment.
                    let image = pointing
                        ? #"{"byteCount":48213,"contentType":"image/jpeg","id":"\#(digest)"}"#
                        : #"{"byteCount":48213,"contentType":"image/jpeg","xx":"\#(digest)"}"#
                    try conn.execute("INSERT INTO photo VALUES (?, ?, ?)", [.text("p\(index)"), .text("Photo \(index)"), .text(image)])
                }
            }
            let writerSync = try await BoutiqueSync(
                database: writer, tables: ["photo"], server: .http(url, token: try SyncNetworkWorkloads.token(tenant: tenant, user: "w")))
            _ = try await writerSync.synchronize()
            await writer.close()
            tenants[pointing] = tenant
        }
        var times: [Bool: [Double]] = [false: [], true: []]
        for _ in 0..<rounds {
            for pointing in [false, true] {
                let reader = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: schema)
                let sync = try await BoutiqueSync(
                    database: reader, tables: ["photo"],
                    server: .http(url, token: try SyncNetworkWorkloads.token(tenant: tenants[pointing]!, user: "r")))
                let start = SyncNetworkWorkloads.now()
                let report = try await sync.synchronize()
                times[pointing]!.append(SyncNetworkWorkloads.now() - start)
                guard report.applied == rows else { throw BoutiqueError.syncUnavailable(reason: "pulled \(report.applied) rows of \(rows)") }
                await reader.close()
            }
        }
        let median = { (pointing: Bool) in times[pointing]!.sorted()[rounds / 2] }
        print(String(format: "  a new device pulling %d rows: plain text %.0f ms, pointing at attachments %.0f ms (%.2f×)",
                     rows, median(false) * 1e3, median(true) * 1e3, median(true) / median(false)))
    }
}

/// The peak resident memory of this process and of a server process while `body` runs, above what
/// each held just before, sampled every 5 ms.
enum MemoryPeaks {
    struct Figures {
        var seconds: Double
        var device: Int
        var server: Int
    }

    static func during(server pid: Int32, _ body: () async throws -> Void) async throws -> Figures {
        let own = getpid()
        let idle = (device: ProcessUsage.residentBytes(of: own), server: ProcessUsage.residentBytes(of: pid))
        let peaks = Lock((device: idle.device, server: idle.server, running: true))
        let sampler = Thread {
            while peaks.withLock({ $0.running }) {
                let now = (device: ProcessUsage.residentBytes(of: own), server: ProcessUsage.residentBytes(of: pid))
                peaks.withLock { peaks in
                    peaks.device = max(peaks.device, now.device)
                    peaks.server = max(peaks.server, now.server)
                }
                usleep(5_000)
            }
        }
        sampler.start()
        let start = SyncNetworkWorkloads.now()
        defer { peaks.withLock { $0.running = false } }
        try await body()
        let seconds = SyncNetworkWorkloads.now() - start
        let final = peaks.withLock { $0 }
        return Figures(seconds: seconds, device: final.device - idle.device, server: final.server - idle.server)
    }
}
