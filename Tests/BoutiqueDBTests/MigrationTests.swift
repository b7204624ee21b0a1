import BoutiqueDB
import Foundation
import Testing

/// Migrations: applied once, in order, each in its own transaction, history checked.
@Suite struct MigrationTests {
    struct MigrationBroke: Error {}

    private func tables(_ database: DatabaseActor) async throws -> Set<String> {
        try await database.read { conn in
            Set(try conn.fetchAll("SELECT name FROM sqlite_schema WHERE type = 'table'").map { "\($0[0])" })
        }
    }

    private func plan(_ ids: [String]) -> BoutiqueMigrationPlan {
        BoutiqueMigrationPlan(ids.map { id in
            BoutiqueMigration(id) { conn in try conn.execute("CREATE TABLE \(id)(x)") }
        })
    }

    @Test func appliesThePlanOnceAndRecordsIt() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("migrations.db")
        let runs = Box(0)
        let counted = BoutiqueMigrationPlan {
            AppMigrations.plan
            BoutiqueMigration("v3_count_runs") { _ in runs.update { $0 += 1 } }
        }
        let before = Date()
        let database = try await DatabaseActor.open(url: url, migrations: counted)
        let applied = try await database.appliedMigrations()
        #expect(applied.map(\.id) == ["v1_create_notes", "v2_add_pinned_column", "v3_count_runs"])
        #expect(applied.allSatisfy { $0.appliedAt >= before.addingTimeInterval(-1) && $0.appliedAt <= Date() })
        #expect(try await tables(database).isSuperset(of: ["note", "boutique_migrations"]))
        await database.close()

        let reopened = try await DatabaseActor.open(url: url, migrations: counted)
        #expect(runs.value == 1)
        #expect(try await reopened.appliedMigrations() == applied)
        await reopened.close()
    }

    @Test func anExtendedPlanAppliesOnlyTheNewMigrations() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("extended.db")
        await (try await DatabaseActor.open(url: url, migrations: plan(["a", "b"]))).close()
        let database = try await DatabaseActor.open(url: url, migrations: plan(["a", "b", "c"]))
        #expect(try await database.appliedMigrations().map(\.id) == ["a", "b", "c"])
        #expect(try await tables(database).isSuperset(of: ["a", "b", "c"]))
        await database.close()
    }

    @Test func aFailingMigrationLeavesTheDatabaseAsTheLastGoodOneLeftIt() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("failing.db")
        let failing = BoutiqueMigrationPlan {
            BoutiqueMigration("a") { conn in try conn.execute("CREATE TABLE a(x)") }
            BoutiqueMigration("b") { conn in
                try conn.execute("CREATE TABLE b(x)")
                try conn.execute("INSERT INTO a VALUES (1)")
                try conn.execute("INSERT INTO no_such_table VALUES (1)")
            }
            BoutiqueMigration("c") { conn in try conn.execute("CREATE TABLE c(x)") }
        }
        let error = await #expect(throws: BoutiqueError.self) {
            try await DatabaseActor.open(url: url, migrations: failing)
        }
        guard case .migrationFailed(let id, let message)? = error else {
            Issue.record("expected migrationFailed, got \(String(describing: error))")
            return
        }
        #expect(id == "b")
        #expect(message.contains("no_such_table"))

        let database = try await DatabaseActor.open(url: url)
        #expect(try await database.appliedMigrations().map(\.id) == ["a"])
        let names = try await tables(database)
        #expect(names.contains("a") && !names.contains("b") && !names.contains("c"))
        #expect(try await database.read { conn in try conn.count("a") } == 0)
        await database.close()
    }

    @Test func aSwiftErrorInAMigrationFailsIt() async throws {
        let failing = BoutiqueMigrationPlan {
            BoutiqueMigration("a") { conn in
                try conn.execute("CREATE TABLE a(x)")
                throw MigrationBroke()
            }
        }
        let error = await #expect(throws: BoutiqueError.self) {
            try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: failing)
        }
        guard case .migrationFailed(let id, let message)? = error else {
            Issue.record("expected migrationFailed, got \(String(describing: error))")
            return
        }
        #expect(id == "a")
        #expect(message.contains("MigrationBroke"))
    }

    @Test func anUnknownAppliedMigrationIsRefusedAndTheFileLeftUntouched() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("newer.db")
        await (try await DatabaseActor.open(url: url, migrations: plan(["a", "b"]))).close()
        let bytes = try #require(contents(of: url))

        await #expect(throws: BoutiqueError.migrationHistoryMismatch(applied: ["a", "b"], planned: ["a"])) {
            try await DatabaseActor.open(url: url, migrations: plan(["a"]))
        }
        await #expect(throws: BoutiqueError.migrationHistoryMismatch(applied: ["a", "b"], planned: ["a", "x", "b"])) {
            try await DatabaseActor.open(url: url, migrations: plan(["a", "x", "b"]))
        }
        #expect(contents(of: url) == bytes)
        #expect(!FileManager.default.fileExists(atPath: url.path + "-wal"))
    }

    @Test func aReorderedHistoryIsRefused() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("reordered.db")
        await (try await DatabaseActor.open(url: url, migrations: plan(["a", "b"]))).close()
        let bytes = try #require(contents(of: url))
        await #expect(throws: BoutiqueError.migrationHistoryMismatch(applied: ["a", "b"], planned: ["b", "a"])) {
            try await DatabaseActor.open(url: url, migrations: plan(["b", "a"]))
        }
        #expect(contents(of: url) == bytes)
    }

    @Test func duplicateIDsAreRefusedBeforeAnythingIsTouched() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("duplicate.db")
        await #expect(throws: BoutiqueError.duplicateMigrationID("a")) {
            try await DatabaseActor.open(url: url, migrations: plan(["a", "b", "a"]))
        }
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test func aForeignKeyViolationFailsTheMigration() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("foreign.db")
        let violating = BoutiqueMigrationPlan {
            BoutiqueMigration("v1_tables") { conn in
                try conn.execute("""
                    CREATE TABLE folder(id INTEGER PRIMARY KEY);
                    CREATE TABLE item(id INTEGER PRIMARY KEY, folderID INTEGER NOT NULL REFERENCES folder(id));
                    """)
            }
            BoutiqueMigration("v2_orphan") { conn in try conn.execute("INSERT INTO item(folderID) VALUES (42)") }
        }
        let error = await #expect(throws: BoutiqueError.self) {
            try await DatabaseActor.open(url: url, migrations: violating)
        }
        guard case .migrationFailed(let id, let message)? = error else {
            Issue.record("expected migrationFailed, got \(String(describing: error))")
            return
        }
        #expect(id == "v2_orphan")
        #expect(message.contains("foreign key"))
        let database = try await DatabaseActor.open(url: url)
        #expect(try await database.appliedMigrations().map(\.id) == ["v1_tables"])
        #expect(try await database.read { conn in try conn.count("item") } == 0)
        await database.close()
    }

    /// Foreign keys are not enforced during a migration (tables can be rebuilt), but are afterwards.
    @Test func migrationsMayRebuildTablesAndForeignKeysAreEnforcedAfterwards() async throws {
        let rebuilding = BoutiqueMigrationPlan {
            BoutiqueMigration("v1_tables") { conn in
                try conn.execute("""
                    CREATE TABLE folder(id INTEGER PRIMARY KEY, name TEXT);
                    CREATE TABLE item(id INTEGER PRIMARY KEY, folderID INTEGER NOT NULL REFERENCES folder(id));
                    INSERT INTO folder(id, name) VALUES (1, 'Inbox');
                    INSERT INTO item(folderID) VALUES (1);
                    """)
            }
            BoutiqueMigration("v2_rebuild_folder") { conn in
                try conn.execute("""
                    CREATE TABLE new_folder(id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT '');
                    INSERT INTO new_folder(id, name) SELECT id, coalesce(name, '') FROM folder;
                    DROP TABLE folder;
                    ALTER TABLE new_folder RENAME TO folder;
                    """)
            }
        }
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: rebuilding)
        #expect(try await database.read { conn in try conn.count("item") } == 1)
        let error = await #expect(throws: BoutiqueError.self) {
            try await database.write { conn in try conn.execute("INSERT INTO item(folderID) VALUES (99)") }
        }
        #expect(error?.resultCode == .constraintForeignKey)
        await database.close()
    }

    @Test func theResultBuilderTakesConditionsLoopsAndNestedPlans() {
        let includeExtras = true
        let built = BoutiqueMigrationPlan {
            BoutiqueMigration("a") { _ in }
            if includeExtras { BoutiqueMigration("b") { _ in } }
            for name in ["c", "d"] { BoutiqueMigration(name) { _ in } }
            AppMigrations.plan
        }
        #expect(built.ids == ["a", "b", "c", "d", "v1_create_notes", "v2_add_pinned_column"])
    }
}
