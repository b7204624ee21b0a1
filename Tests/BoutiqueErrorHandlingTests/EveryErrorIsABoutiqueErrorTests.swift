import BoutiqueDB
import BoutiqueErrorHandlingShapes
import Foundation
import Testing

/// Whatever goes wrong, what the API throws is a `BoutiqueError`: the untyped `throws` of its
/// declarations never lets another error type out.
@Suite @MainActor struct EveryErrorIsABoutiqueErrorTests {
    /// The error `body` throws, which must be a `BoutiqueError`.
    private func boutiqueError(
        _ what: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void
    ) async -> BoutiqueError? {
        do {
            try await body()
            Issue.record("\(what) did not fail", sourceLocation: sourceLocation)
            return nil
        } catch let error as BoutiqueError {
            return error
        } catch {
            Issue.record("\(what) threw \(type(of: error)): \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }

    @Test func openingFailures() async throws {
        let folder = try TemporaryFolder()
        let text = folder.file("notes.txt")
        try Data(String(repeating: "not a database ", count: 300).utf8).write(to: text)
        let notADatabase = await boutiqueError("opening a text file") { _ = try await BoutiqueDB.open(url: text) }
        #expect(notADatabase?.resultCode?.primary == .notADatabase)

        let failed = await boutiqueError("a failing migration") {
            _ = try await BoutiqueDB.open(url: folder.file("a.db"), migrations: AppMigrations.failing)
        }
        guard case .migrationFailed(let id, _) = failed else {
            Issue.record("expected migrationFailed, got \(String(describing: failed))")
            return
        }
        #expect(id == "v2_broken")

        let duplicate = BoutiqueMigrationPlan {
            BoutiqueMigration("same") { _ in }
            BoutiqueMigration("same") { _ in }
        }
        let duplicated = await boutiqueError("a plan naming an id twice") {
            _ = try await BoutiqueDB.open(url: folder.file("b.db"), migrations: duplicate)
        }
        #expect(duplicated == .duplicateMigrationID("same"))

        let badOptions = await boutiqueError("no readers") {
            _ = try await BoutiqueDB.open(url: folder.file("c.db"), options: .init(readerCount: 0))
        }
        guard case .invalidArgument = badOptions else {
            Issue.record("expected invalidArgument, got \(String(describing: badOptions))")
            return
        }
    }

    @Test func locationFailures() async {
        let path = await boutiqueError("a path as a file name") { _ = try BoutiqueDB.documentsURL(filename: "../x.db") }
        #expect(path == .invalidArgument("'../x.db' is not a file name"))
        let group = await boutiqueError("an empty App Group") { _ = try BoutiqueDB.sharedContainerURL(groupIdentifier: "") }
        #expect(group == .invalidArgument("the App Group identifier is empty"))
    }

    @MainActor
    @Test func statementFailures() async throws {
        let db = try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: AppMigrations.plan)
        let syntax = await boutiqueError("bad SQL") { try await db.write { conn in try conn.execute("INSERT INTO") } }
        #expect(syntax?.resultCode?.primary == .error)

        let id = UUID()
        try await db.write { conn in try Note.insert { Note(id: id, title: "a", body: "") }.execute(conn) }
        let duplicate = await boutiqueError("a duplicate key") {
            try await db.write { conn in try Note.insert { Note(id: id, title: "b", body: "") }.execute(conn) }
        }
        #expect(duplicate?.resultCode?.primary == .constraint)

        try await db.write { conn in
            try conn.execute("INSERT INTO note VALUES (?, 'y', 'z', 'not a date')", [.text(UUID().uuidString.lowercased())])
        }
        let decoding = await boutiqueError("a text where a date is stored") {
            _ = try await db.read { conn in try Note.all.fetchAll(conn) }
        }
        guard case .decoding(let failure) = decoding else {
            Issue.record("expected a decoding error, got \(String(describing: decoding))")
            return
        }
        #expect(failure.column == "updatedAt")

        let readOnly = await boutiqueError("a write in a read") {
            _ = try await db.read { conn in try conn.execute("DELETE FROM note") }
        }
        #expect(readOnly?.resultCode?.primary == .readOnly)

        let missing = await boutiqueError("a missing table") {
            _ = try await db.read { conn in try #sql("SELECT 1 FROM missing", as: Int.self).fetchAll(conn) }
        }
        #expect(missing?.resultCode?.primary == .error)

        await db.close()
    }

    @MainActor
    @Test func useAfterClose() async throws {
        let db = try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: AppMigrations.plan)
        await db.close()
        #expect(await boutiqueError("a read") { _ = try await db.read { conn in try Note.all.fetchAll(conn) } } == .databaseClosed)
        #expect(await boutiqueError("a write") { try await db.write { _ in } } == .databaseClosed)
        #expect(await boutiqueError("the applied migrations") { _ = try await db.appliedMigrations } == .databaseClosed)
        #expect(await boutiqueError("the change token") { _ = try await db.currentToken } == .databaseClosed)
        #expect(await boutiqueError("the schema") { _ = try await db.schemaDifferences(expected: []) } == .databaseClosed)
    }
}
