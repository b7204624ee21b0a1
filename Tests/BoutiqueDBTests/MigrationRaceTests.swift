import BoutiqueDB
import Foundation
import Testing

/// Two processes opening the same new file at once apply each migration exactly once.
@Suite struct MigrationRaceTests {
    @Test func twoProcessesMigratingTogetherApplyEachMigrationOnce() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("race.db").path
        let startAt = String(Date().timeIntervalSince1970 + 0.5)
        let first = try Worker.start(["migrate", path, "--start-at", startAt])
        let second = try Worker.start(["migrate", path, "--start-at", startAt])
        let outcomes = try await withTimeout(30) {
            [await Worker.finish(first), await Worker.finish(second)]
        }
        let expected = "ok m1_create_log,m2_create_item,m3_add_column"
        #expect(outcomes.map(\.output) == [expected, expected], "\(outcomes)")

        let database = try await DatabaseActor.open(url: URL(fileURLWithPath: path))
        let log = try await database.read { conn in
            try conn.fetchAll("SELECT migration FROM migration_log ORDER BY rowid").map { "\($0[0])" }
        }
        #expect(log == ["m1_create_log", "m2_create_item", "m3_add_column"])
        #expect(try await database.appliedMigrations().map(\.id) == ["m1_create_log", "m2_create_item", "m3_add_column"])
        await database.close()
    }
}
