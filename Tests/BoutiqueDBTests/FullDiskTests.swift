@testable import BoutiqueDB
import BoutiqueSQLite
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A real full disk: a 2 MB tmpfs, mounted by the test where the machine allows it (root on Linux).
@Suite struct FullDiskTests {
    @Test func aFullDiskFailsTheWriteTypedAndTheSameInstanceWritesAgainOnceThereIsRoom() async throws {
        #if os(Linux)
        guard getuid() == 0 else {
            print("skipped the real full disk: mounting a tmpfs needs root")
            return
        }
        let folder = try TemporaryDirectory()
        let mountPoint = folder.file("disk")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        guard run("/bin/mount", ["-t", "tmpfs", "-o", "size=2m", "tmpfs", mountPoint.path]) == 0 else {
            print("skipped the real full disk: this machine does not let the test mount a tmpfs")
            return
        }
        defer { _ = run("/bin/umount", [mountPoint.path]) }

        let database = try await DatabaseActor.open(url: mountPoint.appendingPathComponent("full.db"), migrations: BoutiqueMigrationPlan {
            BoutiqueMigration("v1") { conn in try conn.execute("CREATE TABLE chunk(id INTEGER PRIMARY KEY, data BLOB)") }
        })
        // Most of the disk taken by another file, which goes away later.
        let filler = mountPoint.appendingPathComponent("filler")
        #expect(FileManager.default.createFile(atPath: filler.path, contents: Data(count: 1_200_000)))

        var committed: [Int64] = []
        var failure: BoutiqueError?
        for id: Int64 in 1...200 {
            do {
                try await database.write { conn in
                    try conn.execute("INSERT INTO chunk(id, data) VALUES (?, randomblob(20000))", [.integer(id)])
                }
                committed.append(id)
            } catch let error as BoutiqueError {
                failure = error
                break
            }
        }
        #expect(failure?.resultCode?.primary == .full, "\(String(describing: failure))")
        #expect(!committed.isEmpty)

        // Room again: the same instance writes, and every committed write is there, the failed one not.
        try FileManager.default.removeItem(at: filler)
        try await database.write { conn in try conn.execute("INSERT INTO chunk(id, data) VALUES (1000, x'00')") }
        let ids = try await database.read { conn in try conn.fetchAll("SELECT id FROM chunk ORDER BY id") }
            .compactMap { row -> Int64? in if case .integer(let id) = row[0] { id } else { nil } }
        #expect(ids == committed + [1000])
        let integrity = try await database.read { conn in try conn.connection.integrityCheck() }
        #expect(integrity == ["ok"])
        await database.close()
        #endif
    }

    private func run(_ executable: String, _ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
