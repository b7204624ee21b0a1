import BoutiqueDB
import BoutiqueSync
import Foundation

/// A server's memory at rest after a load spike, with housekeeping off and then on (as `boutique
/// serve` has it, freed memory handed back every 10 s): a server process records its idle size, takes a spike (8 devices each pushing 4,000 notes of 2 KB at
/// once, then 8 new devices bootstrapping all 32,000 at once), and is left alone for a minute, its
/// resident memory (`VmRSS`) read every few seconds.
///
///     swift run -c release boutique-benchmarks --server-memory
///
/// The target: at rest within 1.5× the idle size a minute after the load ends. Then the answers a
/// small request could swell (``AnswerAmplificationWorkloads``), the server's memory under clients
/// that stop reading and its service under slow connections (``AbusiveClientWorkloads``).
enum ServerMemoryWorkloads {
    static let writers = 8
    static let readers = 8
    static let notesPerWriter = 4_000
    static let body = String(repeating: "a body of about two kilobytes ", count: 68)

    static func run() async throws {
        try await measure(housekeeping: false)
        try await measure(housekeeping: true)
        try await AnswerAmplificationWorkloads.run()
        try await AbusiveClientWorkloads.run()
    }

    /// One spike and rest, on a server with housekeeping on or off.
    static func measure(housekeeping: Bool) async throws {
        let server = try ServerProcess(store: "sqlite", settings: ServerProcess.Settings(housekeeping: housekeeping))
        defer { server.stop() }
        let url = try await server.url()
        try await Task.sleep(for: .seconds(2))
        let idle = server.residentBytes()
        let idleKinds = ProcessUsage.residentKinds(of: server.pid)
        let tenant = "memory-\(UUID().uuidString)"
        var devices: [(DatabaseActor, BoutiqueSync)] = []
        for index in 0..<writers {
            let device = try await SyncNetworkWorkloads.device(url: url, tenant: tenant, user: "writer-\(index)")
            try await device.0.write { conn in
                for row in 0..<notesPerWriter {
                    try conn.execute("INSERT INTO note(id, title, body, rank) VALUES (?, ?, ?, ?)",
                                     [.text("w\(index)-\(row)"), .text("note \(row)"), .text(body), .integer(Int64(row))])
                }
            }
            devices.append(device)
        }
        let start = SyncNetworkWorkloads.now()
        let pushed = try await withThrowingTaskGroup(of: Int.self) { group -> Int in
            for (_, sync) in devices { group.addTask { try await sync.push() } }
            return try await group.reduce(0, +)
        }
        var readerDevices: [(DatabaseActor, BoutiqueSync)] = []
        for index in 0..<readers {
            readerDevices.append(try await SyncNetworkWorkloads.device(url: url, tenant: tenant, user: "reader-\(index)"))
        }
        let pulled = try await withThrowingTaskGroup(of: Int.self) { group -> Int in
            for (_, sync) in readerDevices { group.addTask { try await sync.synchronize().applied } }
            return try await group.reduce(0, +)
        }
        let loadSeconds = SyncNetworkWorkloads.now() - start
        let peak = server.peakBytes()
        let atEnd = server.residentBytes()
        for (database, _) in devices + readerDevices { await database.close() }
        print("\na server's memory after a spike (SQLite store, housekeeping \(housekeeping ? "on" : "off"))")
        print(String(format: "  spike: %d × %d notes of 2 KB pushed, %d rows bootstrapped by %d devices, %.1f s",
                     writers, notesPerWriter, pulled, readers, loadSeconds))
        if pushed != writers * notesPerWriter { print("  ! \(pushed) of \(writers * notesPerWriter) pushed") }
        print(String(format: "  idle %.1f MB, peak %.1f MB, %.1f MB when the load ended", mb(idle), mb(peak), mb(atEnd)))
        var seconds = 0
        var atRest = atEnd
        for wait in [5, 5, 10, 10, 15, 15] {
            try await Task.sleep(for: .seconds(wait))
            seconds += wait
            atRest = server.residentBytes()
            print(String(format: "  %2d s later: %.1f MB (%.2f× idle)", seconds, mb(atRest), Double(atRest) / Double(max(idle, 1))))
        }
        print(String(format: "  at rest a minute after the load: %.2f× idle (target ≤ 1.5×)", Double(atRest) / Double(max(idle, 1))))
        let kinds = ProcessUsage.residentKinds(of: server.pid)
        print(String(format: "  at rest: %.1f MB anonymous, %.1f MB file-backed, %.1f MB shared; idle it was %.1f, %.1f, %.1f; %d threads",
                     mb(kinds.anonymous), mb(kinds.file), mb(kinds.shared), mb(idleKinds.anonymous), mb(idleKinds.file),
                     mb(idleKinds.shared), ProcessUsage.threads(of: server.pid)))
    }

    static func mb(_ bytes: Int) -> Double { Double(bytes) / 1_048_576 }
}
