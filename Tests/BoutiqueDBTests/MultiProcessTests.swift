import BoutiqueDB
import Foundation
import Testing

/// Several real processes share one file without losing a commit or seeing `SQLITE_BUSY`.
@Suite struct MultiProcessTests {
    @Test func twoProcessesEachCommitAThousandTransactions() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("shared.db").path
        let startAt = String(Date().timeIntervalSince1970 + 0.5)
        // A short pause between transactions, as an app has, gives the other process its turns; without
        // it one process takes the lock back within microseconds and the other mostly waits.
        let first = try Worker.start(["insert", path, "1000", "A", "--start-at", startAt, "--pause", "0.0001"])
        let second = try Worker.start(["insert", path, "1000", "B", "--start-at", startAt, "--pause", "0.0001"])
        let outcomes = try await withTimeout(45) { [await Worker.finish(first), await Worker.finish(second)] }
        #expect(outcomes.map(\.output) == ["ok 1000", "ok 1000"], "\(outcomes)")

        let database = try await DatabaseActor.open(url: URL(fileURLWithPath: path), options: .init(multiProcess: true))
        let perTag = try await database.read { conn in
            try conn.fetchAll("SELECT tag, count(*), count(DISTINCT n) FROM row GROUP BY tag ORDER BY tag")
                .map { "\($0[0]) \($0[1]) \($0[2])" }
        }
        #expect(perTag == ["A 1000 1000", "B 1000 1000"])
        #expect(try await database.read { conn in try conn.count("row") } == 2000)
        let tags = try await database.read { conn in try conn.fetchAll("SELECT tag FROM row ORDER BY id").map { "\($0[0])" } }
        let turns = zip(tags, tags.dropFirst()).filter { $0 != $1 }.count
        #expect(turns > 1, "the two processes wrote at the same time")
        await database.close()
    }

    @Test func commitsFromAnotherConnectionAreDetected() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("external.db")
        let database = try await DatabaseActor.open(
            url: url, migrations: SharedRowMigrations.plan, options: .init(multiProcess: true))
        #expect(try await database.checkForExternalChanges() == false)
        try await database.write { conn in try conn.execute("INSERT INTO row(tag, n) VALUES ('own', 0)") }
        #expect(try await database.checkForExternalChanges() == false, "its own commits are not external")

        let outcome = try await withTimeout(20) { try await Worker.run(["insert", url.path, "1", "X"]) }
        #expect(outcome.succeeded, "\(outcome)")
        #expect(try await database.checkForExternalChanges() == true)
        #expect(try await database.checkForExternalChanges() == false)
        #expect(try await database.read { conn in try conn.count("row") } == 2)
        await database.close()
    }
}
