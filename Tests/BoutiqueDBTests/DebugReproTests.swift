@testable import BoutiqueDB
import Foundation
import Testing

@Suite struct DebugReproTests {
    @Test func repro() async throws {
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: BoutiqueMigrationPlan {
            BoutiqueMigration("v1") { conn in
                try conn.execute("CREATE TABLE list(id INTEGER PRIMARY KEY); CREATE TABLE reminder(id INTEGER PRIMARY KEY AUTOINCREMENT, list_id INTEGER NOT NULL REFERENCES list(id), title TEXT); CREATE VIEW v AS SELECT id, list_id, title FROM reminder; CREATE TRIGGER vi INSTEAD OF INSERT ON v BEGIN INSERT INTO reminder(list_id, title) VALUES (NEW.list_id, NEW.title); END; INSERT INTO list VALUES (1)")
            }
        })
        let start = try await database.lastChangeID()
        let variant = ProcessInfo.processInfo.environment["V"] ?? "0"
        try await database.write { conn in
            if variant.contains("s") { try conn.connection.execute("SAVEPOINT sp1") }
            if variant.contains("p") { try conn.connection.execute("PRAGMA recursive_triggers = OFF") }
            if variant.contains("r") { try conn.connection.execute("ROLLBACK TO sp1") }
            let statement = try conn.connection.prepare("INSERT INTO v(list_id, title) VALUES (?, ?)")
            try statement.bind([.integer(10), .text("x")])
            do { while try statement.step() {} } catch { print("failed as expected: \(error)") }
            statement.finalize()
            if variant.contains("s") { try conn.connection.execute("RELEASE sp1") }
        }
        let log = try await database.loggedChanges(after: start)
        print("LOG \(variant): \(log)")
        #expect(log.isEmpty)
    }
}
