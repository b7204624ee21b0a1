@testable import BoutiqueDB
import Foundation
import Testing

/// An FTS5 index is derived from its content table, whose changes the log records: the tables FTS5
/// keeps for it never appear in `turso_cdc`, neither their rows nor their schema.
@Suite struct ChangeCaptureSearchIndexTests {
    private func open() async throws -> DatabaseActor {
        try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SearchMigrations.plan)
    }

    @Test func aWriteToTheContentTableLogsOnlyItsRows() async throws {
        let database = try await open()
        let start = try await database.lastChangeID()
        let id = UUID()
        try await database.write { conn in
            try Note.insert { Note(id: id, title: "Groceries", body: "oat milk") }.execute(conn)
        }
        try await database.write { conn in
            try Note.update { $0.body = "lemons" }.where { $0.id == id }.execute(conn)
        }
        try await database.write { conn in try Note.where { $0.id == id }.delete().execute(conn) }
        let log = try await database.loggedChanges(after: start)
        #expect(log.map(\.type) == [1, 2, 0, 2, -1, 2], "\(log)")
        #expect(log.compactMap(\.table) == ["note", "note", "note"])
        #expect(log[2].updatedFlags == [0, 0, 1, 0, 0], "the update assigned the body only")
        await database.close()
    }

    @Test func theMigrationLogsTheIndexDefinitionButNotFTS5sTables() async throws {
        let database = try await open()
        let log = try await database.loggedChanges()
        #expect(!log.contains { $0.table?.lowercased().hasPrefix("notesearch") == true }, "\(log)")
        let schemaNames = log.filter { $0.table == "sqlite_schema" }.compactMap { change -> String? in
            if case .text(let name)? = change.after?[1] { name } else { nil }
        }
        // The virtual table and its triggers are schema, like an index's CREATE INDEX; FTS5 makes its
        // storage tables itself when a reader replays that CREATE.
        #expect(schemaNames.filter { $0.hasPrefix("noteSearch") } == [
            "noteSearch", "noteSearch_after_insert", "noteSearch_after_delete", "noteSearch_after_update",
        ])
        await database.close()
    }

    @Test func indexingTheRowsAlreadyThereLogsNothingOfTheIndex() async throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("search.db")
        var database = try await DatabaseActor.open(url: url, migrations: AppMigrations.plan)
        try await database.write { conn in
            try Note.insert {
                Note(id: UUID(), title: "Groceries", body: "oat milk")
                Note(id: UUID(), title: "Garden", body: "water the lemon tree")
            }.execute(conn)
        }
        let start = try await database.lastChangeID()
        await database.close()
        database = try await DatabaseActor.open(url: url, migrations: SearchMigrations.plan)
        let log = try await database.loggedChanges(after: start)
        #expect(Set(log.compactMap(\.table)) == ["sqlite_schema", "boutique_migrations"], "\(log)")
        await database.close()
    }

    @Test func writesOutsideATransactionAndARebuildLogNothingOfTheIndex() async throws {
        let database = try await open()
        let start = try await database.lastChangeID()
        try await database.writeWithoutTransaction { conn in
            try Note.insert { Note(id: UUID(), title: "Outside", body: "a transaction") }.execute(conn)
        }
        try await database.write { conn in try conn.rebuildFTS5Table(NoteSearch.self) }
        let log = try await database.loggedChanges(after: start)
        #expect(log.compactMap(\.table) == ["note"], "\(log)")
        await database.close()
    }

    @Test func anIndexCreatedOutsideATransactionLogsNoneOfFTS5sTables() async throws {
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: AppMigrations.plan)
        try await database.write { conn in
            try Note.insert { Note(id: UUID(), title: "Before", body: "the index") }.execute(conn)
        }
        let start = try await database.lastChangeID()
        try await database.writeWithoutTransaction { conn in
            try conn.createFTS5Table(NoteSearch.self, content: Note.self)
        }
        let log = try await database.loggedChanges(after: start)
        #expect(log.allSatisfy { $0.table == nil || $0.table == "sqlite_schema" }, "\(log)")
        #expect(!log.isEmpty)
        await database.close()
    }

    @Test func aSearchReadsItsContentTableForLiveQueries() async throws {
        let database = try await open()
        let region = try await database.read { conn in
            try ReadRegion.of(NoteSearch.where { $0.match("x") }.select { $0.title }.sql, on: conn.connection)
        }
        // Another process learns of a commit from the log, which names the notes and not FTS5's tables.
        #expect(region.intersects(["note"]))
        #expect(region.intersects(["notesearch_data"]), "this process's commits also name FTS5's tables")
        #expect(!region.intersects(["tag"]))
        await database.close()
    }

    @Test func aTableThatOnlyEndsLikeFTS5StorageIsLogged() async throws {
        let database = try await open()
        let start = try await database.lastChangeID()
        try await database.write { conn in
            // `notes_data` belongs to no FTS5 table: only `noteSearch_data` would be FTS5's.
            try conn.execute("CREATE TABLE notes_data(id INTEGER PRIMARY KEY, value TEXT)")
            try conn.execute("INSERT INTO notes_data(value) VALUES ('kept')")
        }
        let log = try await database.loggedChanges(after: start)
        #expect(log.contains { $0.table == "notes_data" && $0.after == [1, "kept"] }, "\(log)")
        await database.close()
    }
}
