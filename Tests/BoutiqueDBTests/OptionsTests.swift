import BoutiqueDB
import Foundation
import Testing

/// What opening sets up: WAL, durability, foreign keys, read-only readers.
@Suite struct OptionsTests {
    private func pragma(_ name: String, on database: DatabaseActor) async throws -> DatabaseValue? {
        try await database.writeWithoutTransaction { conn in try conn.fetchValue("PRAGMA \(name)") }
    }

    @Test func filesUseWALWithNormalDurabilityAndForeignKeys() async throws {
        let directory = try TemporaryDirectory()
        let database = try await DatabaseActor.open(url: directory.file("options.db"), migrations: AppMigrations.plan)
        #expect(try await pragma("journal_mode", on: database) == "wal")
        #expect(try await pragma("synchronous", on: database) == .integer(1))
        #expect(try await pragma("foreign_keys", on: database) == .integer(1))
        #expect(try await database.read { conn in try conn.fetchValue("PRAGMA query_only") } == .integer(1))
        await database.close()
    }

    @Test func fullDurabilityAndForeignKeysOff() async throws {
        let directory = try TemporaryDirectory()
        let database = try await DatabaseActor.open(
            url: directory.file("full.db"), options: .init(foreignKeys: false, durability: .full))
        #expect(try await pragma("synchronous", on: database) == .integer(2))
        #expect(try await pragma("foreign_keys", on: database) == .integer(0))
        await database.close()
    }

    @Test func inMemoryDatabasesUseWALWithoutDurability() async throws {
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL())
        #expect(try await pragma("journal_mode", on: database) == "wal")
        #expect(try await pragma("synchronous", on: database) == .integer(0))
        await database.close()
    }

    @Test func vacuumRunsOutsideATransactionOnly() async throws {
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: AppMigrations.plan)
        await #expect(throws: BoutiqueError.self) { try await database.write { conn in try conn.execute("VACUUM") } }
        try await database.writeWithoutTransaction { conn in try conn.execute("VACUUM") }
        let error = await #expect(throws: BoutiqueError.self) {
            try await database.writeWithoutTransaction { conn in
                try conn.execute("BEGIN; INSERT INTO note(id, title, body, updatedAt) VALUES ('1', 'a', '', 0)")
            }
        }
        guard case .invalidArgument? = error else {
            Issue.record("expected invalidArgument, got \(String(describing: error))")
            return
        }
        #expect(try await database.read { conn in try conn.count("note") } == 0, "the open transaction rolled back")
        await database.close()
    }

    @Test func rawFetchHelpersReturnRowsOfValues() async throws {
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: AppMigrations.plan)
        try await database.write { conn in
            try conn.execute(
                "INSERT INTO note(id, title, body, updatedAt) VALUES (?, ?, ?, ?)", ["1", "Groceries", "milk", 1.5])
            #expect(conn.changes == 1)
        }
        let (all, one, value, missing) = try await database.read { conn in
            (
                try conn.fetchAll("SELECT id, title, updatedAt FROM note"),
                try conn.fetchOne("SELECT title AS name, isPinned FROM note"),
                try conn.fetchValue("SELECT body FROM note WHERE id = ?", ["1"]),
                try conn.fetchOne("SELECT * FROM note WHERE id = 'none'")
            )
        }
        #expect(all == [DatabaseRow(columns: ["id", "title", "updatedAt"], values: ["1", "Groceries", 1.5])])
        #expect(one?["NAME"] == "Groceries")
        #expect(one?[1] == .integer(0))
        #expect(one?[7] == .null)
        #expect(one?["nope"] == nil)
        #expect(value == "milk")
        #expect(missing == nil)
        await database.close()
    }
}
