import BoutiqueDB
import BoutiqueErrorHandlingShapes
import Foundation
import Testing

/// The shapes of `ErrorHandlingShapes.swift` run: each reports what the product description promises.
/// Serialized because the global `db` is shared.
@Suite(.serialized) @MainActor struct ErrorHandlingShapeTests {
    @Test func aGlobalDatabaseOpensAndReads() async throws {
        let folder = try TemporaryFolder()
        let failed = try await openGlobalDatabase(url: folder.file("global.db"), plan: AppMigrations.plan)
        #expect(failed == nil)
        #expect(try await db.appliedMigrations.map(\.id) == ["v1_create_notes"])
        let model = NotesModel()
        try await db.write { conn in try Note.insert { Note(id: UUID(), title: "Live", body: "") }.execute(conn) }
        let deadline = ContinuousClock.now + .seconds(5)
        while model.notes.isEmpty, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(1)) }
        #expect(model.notes.map(\.title) == ["Live"])
        await db.close()
        db = nil
    }

    @Test func aGlobalDatabaseReportsTheFailedMigration() async throws {
        let folder = try TemporaryFolder()
        db = nil
        let failed = try await openGlobalDatabase(url: folder.file("global.db"), plan: AppMigrations.failing)
        #expect(failed == "v2_broken")
        #expect(db == nil, "a database whose migration failed is not opened")
    }

    @Test func aLocalDatabaseOpensOrReportsTheFailedMigration() async throws {
        let folder = try TemporaryFolder()
        let good = try await openLocalDatabase(url: folder.file("local.db"), plan: AppMigrations.plan)
        #expect(good.failedID == nil && good.applied == ["v1_create_notes"])
        let bad = try await openLocalDatabase(url: folder.file("other.db"), plan: AppMigrations.failing)
        #expect(bad.failedID == "v2_broken" && bad.applied.isEmpty)
    }

    @Test func aPropertyDatabaseHandlesErrorsWithTheSeedsSwitch() async throws {
        let folder = try TemporaryFolder()
        let store = NotesStore()
        try await store.open(url: folder.file("store.db"), plan: AppMigrations.plan)
        #expect(store.failedMigration == nil)
        #expect(await store.add(title: "Milk") == "added")
        try await store.db.write { conn in try conn.execute("DROP TABLE note") }
        let message = await store.add(title: "Eggs")
        #expect(message.hasPrefix("SQLite/Turso Engine Error ("), "\(message)")
        #expect(message.contains("no such table: note"), "\(message)")
        #expect(store.lastError?.resultCode?.primary == .error)
        await store.db.close()
    }

    @Test func theEngineItselfReportsTheFailedMigrationOffTheMainActor() async throws {
        let folder = try TemporaryFolder()
        #expect(try await openDatabaseActor(url: folder.file("engine.db"), plan: AppMigrations.plan) == nil)
        #expect(try await openDatabaseActor(url: folder.file("broken.db"), plan: AppMigrations.failing) == "v2_broken")
    }

    @Test func synchronousCallersGetTheLocationOrItsError() {
        guard case .failure(let error) = locateDatabase(named: "a/b.db") else {
            Issue.record("a path is not a file name")
            return
        }
        #expect(error == .invalidArgument("'a/b.db' is not a file name"))
    }

    @Test func aClosureHandlesItsOwnStatementsError() async throws {
        let database = try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: AppMigrations.plan)
        let id = UUID()
        #expect(try await database.write { conn in try insertIgnoringDuplicates(conn, id: id) })
        #expect(try await database.write { conn in try insertIgnoringDuplicates(conn, id: id) } == false)
        #expect(try await database.read { conn in try Note.all.fetchCount(conn) } == 1)
        await database.close()
    }

    /// The pattern written inline in a test, as a user's own tests do.
    @Test func theSeedsPatternInsideATest() async throws {
        let folder = try TemporaryFolder()
        var failedID: String?
        do { db = try await BoutiqueDB.open(url: folder.file("inline.db"), migrations: AppMigrations.failing) }
        catch let error as BoutiqueError { if case .migrationFailed(let id, _) = error { failedID = id } }
        #expect(failedID == "v2_broken")
        do { db = try await BoutiqueDB.open(url: folder.file("inline.db"), migrations: AppMigrations.plan) }
        catch let error as BoutiqueError { Issue.record("\(error)") }
        let notes = try await db!.read { conn in try Note.all.fetchAll(conn.connection) }
        #expect(notes.isEmpty)
        #expect(try await db.appliedMigrations.map(\.id) == ["v1_create_notes"])
        await db.close()
        db = nil
    }
}
