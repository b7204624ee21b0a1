import BoutiqueDB
import Foundation
import Testing

/// A process killed in the middle of writing loses no committed transaction and leaves no partial one.
@Suite struct CrashTests {
    @Test func killingAWriterLosesNothingCommittedAndNothingHalfDone() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("crash.db").path
        let worker = try Worker.start(["write-until-killed", path])
        let enough = await poll(seconds: 20) { worker.output.contains("committed 200\n") }
        worker.kill()
        _ = try await withTimeout(10) { await worker.status() }
        #expect(enough, "the worker committed 200 transactions before it was killed: \(worker.output.suffix(200))")
        let reported = worker.output.split(separator: "\n").compactMap { line in
            line.hasPrefix("committed ") ? Int64(line.dropFirst("committed ".count)) : nil
        }
        let lastReported = try #require(reported.max())

        let database = try await DatabaseActor.open(url: URL(fileURLWithPath: path), migrations: SharedRowMigrations.plan)
        let integrity = try await database.read { conn in try conn.fetchAll("PRAGMA integrity_check").map { "\($0[0])" } }
        #expect(integrity == ["ok"])
        let groups = try await database.read { conn in
            try conn.fetchAll("SELECT n, count(*) FROM row GROUP BY n ORDER BY n").map { row -> [Int64] in
                guard case .integer(let n) = row[0], case .integer(let count) = row[1] else { return [] }
                return [n, count]
            }
        }
        #expect(groups.allSatisfy { $0.count == 2 && $0[1] == 3 }, "every transaction is all there or absent")
        let committed = groups.compactMap(\.first)
        #expect(committed == Array(0...Int64(committed.count - 1)), "transactions committed in order, none missing")
        #expect(Int64(committed.count) > lastReported, "every reported commit survived the kill")
        await database.close()
    }

    private func poll(seconds: Double, _ condition: @Sendable () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(hangDeadline(seconds: seconds))
        while !condition() {
            if Date() > deadline { return false }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return true
    }
}
