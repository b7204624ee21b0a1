import BoutiqueDB
import BoutiqueDocumentationListings
import Foundation
import Testing

/// Runs the documentation's listings on in-memory databases and checks that they do what the articles
/// say. (Every listing is compiled; these run a few of them.)
@Suite struct ListingTests {
    @MainActor
    @Test func attachmentsListingsStoreReadAndList() async throws {
        let movie = FileManager.default.temporaryDirectory.appendingPathComponent("listing-\(UUID().uuidString).mp4")
        try Data(repeating: 7, count: 3_000_000).write(to: movie)
        defer { try? FileManager.default.removeItem(at: movie) }
        let jpeg = Data("not really a JPEG".utf8)
        let result = try await AttachmentsArticle.storeAndRead(jpegData: jpeg, movieURL: movie)
        #expect(result.bytes == jpeg)
        #expect(result.entries == 2, "the photo's image, and the video no row points at")
    }

    @MainActor
    @Test func gettingStartedWritesReadsAndShowsTheNotes() async throws {
        let titles = try await GettingStarted.writeAndRead()
        #expect(Set(titles.prefix(2)) == ["Groceries", "Call the plumber"])
        #expect(Array(titles.dropFirst(2)) == ["Groceries"], "the plumber note was deleted")
        #expect(try await GettingStarted.liveQuery() == 1)
    }

    @MainActor
    @Test func expressionFamilyListingsRun() async throws {
        // Three reminders labelled and three open-or-NULL titles; two lists; three casts; no events;
        // two lists' title arrays and one tagged talk.
        #expect(try await ModelsAndQueries.runFamilies() == [6, 2, 3, 0, 3])
    }

    @MainActor
    @Test func jsonPathListingsRun() async throws {
        #expect(try await ModelsAndQueries.runJSONPaths() == [
            #"["Blob", "Blob Sr"] ["pointfree.co", "example.com"] [1] [1, 1]"#,
            #"[1] [1] ["Blob: pointfree.co", "Blob Sr: example.com"]"#,
            #"Blob, Esq. true Blobby ["pointfree.co", "blob.dev"] ["urgent", "reviewed"]"#,
            #"Blob, Esq. true - ["example.com"] []"#,
        ])
    }

    @MainActor
    @Test func triggersAndViewsListingsRun() async throws {
        // A reminder inserted through the view into the list named "Home"; the seed's tag link and a
        // new one counted; the done reminder retitled and so reopened.
        #expect(try await ModelsAndQueries.runTriggersAndViews().sorted() == [
            "Home: Call Mum", "Home: Groceries", "Home: Haircut at 5", "Work: Email the team", "reopened true", "uses [2, 0]",
        ])
    }

    @MainActor
    @Test func gettingStartedSearchesTheNotes() async throws {
        #expect(try await GettingStarted.search() == ["Groceries: oat milk, [lemons]"])
    }

    @MainActor
    @Test func gettingStartedReportsAFailedWrite() async throws {
        let message = try await GettingStarted.addNoteFailing()
        #expect(message.hasPrefix("SQLite error"), "\(message)")
        #expect(message.contains("no such table: note"))
    }

    @Test func modelsAndQueries() async throws {
        let lines = try await ModelsAndQueries.run()
        #expect(lines == [
            "Groceries,Email the team", "Groceries,Haircut,Email the team", "3", "Groceries", "2", "1:2",
            "Groceries#home", "Home:Groceries,Work:Email the team", "Home=1,Work=1",
            "2", "1", "1", "4,nil,nil",
            "1", "2",
            #"SELECT "reminder"."id", "reminder"."listID", "reminder"."title", "reminder"."notes", "reminder"."dueDate", "reminder"."priority", "reminder"."isDone" FROM "reminder" WHERE ("reminder"."title" = ?) ORDER BY "reminder"."id""#,
            "[Groceries]",
            "Haircut,EMAIL THE TEAM,BOOK FLIGHTS,PACK", "1", "1",
            "Groceries,Water the plants,Groceries,Water the plants",
        ])
    }

    @MainActor
    @Test func tableAliasesPairRemindersOfOneList() async throws {
        #expect(try await ModelsAndQueries.runAliases() == ["Groceries&Haircut"])
    }

    @Test func databaseFunctions() async throws {
        let lines = try await ModelsAndQueriesFunctions.run()
        #expect(lines == [
            "Groceries!,Haircut!,Email the team!", "1:high,2:nil", "1:high,2:nil", "Groceries!,Haircut!,Email the team!",
        ])
    }

    @MainActor
    @Test func modelsAndQueriesSearchesTheReminders() async throws {
        #expect(try await ModelsAndQueries.runSearch() == ["1 **Groceries** **Milk**", "Groceries"])
    }

    @Test func theEventModelRendersTheDDLTheArticleShows() {
        #expect(ModelsAndQueries.eventDDL() == """
            CREATE TABLE "events" ("code" TEXT PRIMARY KEY NOT NULL, "starts_at" TEXT NOT NULL, \
            "cancelledAt" INTEGER, "speakers" TEXT NOT NULL, \
            "lowerCode" TEXT GENERATED ALWAYS AS (lower(code)) VIRTUAL) STRICT
            """)
    }

    @MainActor
    @Test func migrationsApplyInOrderAndAFailureKeepsTheGoodOnes() async throws {
        let applied = try await Migrations.open(url: BoutiqueDB.inMemoryURL())
        #expect(applied == "v1_create_notes,v2_add_pinned_column,v3_index_titles")
        let (message, kept) = try await Migrations.failingMigration()
        #expect(message.hasPrefix("migration 'v5_broken' failed"), "\(message)")
        #expect(kept == ["v1_create_notes", "v2_add_pinned_column", "v3_index_titles", "v4_optional_body"])
    }

    @MainActor
    @Test func concurrency() async throws {
        #expect(try await Concurrency.readsAndWrites() == [1, 2, 2, 2, 1, 2])
        #expect(try await Concurrency.cancellation() == .cancelled)
        try await Concurrency.vacuum()
    }

    @MainActor
    @Test func liveQueries() async throws {
        let (changes, titles, status) = try await LiveQueries.observation()
        #expect(changes == 1, "onChange runs once per tracking")
        #expect(titles == ["Dentist", "Groceries", "Plumber"])
        #expect(status == "3 notes")
        let (counts, first) = try await LiveQueries.observe()
        #expect(counts.last == 2 && counts == counts.sorted(), "each result follows a commit: \(counts)")
        #expect(first == "Groceries")
    }

    @MainActor
    @Test func changeLog() async throws {
        let lines = try await ChangeLog.run()
        #expect(lines.prefix(1) == ["Groceries for Sunday"])
        #expect(Int(lines[1]) != nil, "a token encodes as a bare integer: \(lines[1])")
        #expect(lines[2] == #"Groceries for Sunday ["title"]"#)
        #expect(lines.last?.contains(" < ") == true, "the pruned feed throws changesPruned: \(lines)")
    }

    @MainActor
    @Test func sharingAFileBetweenProcesses() async throws {
        let (seen, external) = try await SharingAFileBetweenProcesses.twoOpenings()
        #expect(seen)
        #expect(external)
    }

    @MainActor
    @Test func errors() async throws {
        let lines = try await Errors.run()
        #expect(lines[0] == "added")
        #expect(lines[1] == "A tag named home already exists.")
        #expect(lines[2].hasPrefix("SQLite error"))
        #expect(lines[3].hasPrefix("constraint") || lines[3].contains("NOT NULL"), "\(lines[3])")
        #expect(lines[4] == "tag.color: expected String, found NULL")
        #expect(lines[5] == "BoutiqueDB error: the database is closed")
    }

    @Test func theSQLiteLayer() throws {
        let (titles, duplicate) = try SQLiteLayer.run()
        #expect(titles == ["1 Buy milk", #"[1, NULL, x]"#])
        #expect(duplicate.hasPrefix("UNIQUE constraint failed: note.id"), "\(duplicate)")
    }

    @MainActor
    @Test func syncBetweenTwoDevices() async throws {
        let (pushed, applied, titles) = try await Sync.twoDevices()
        #expect(pushed == 1)
        #expect(applied == 1)
        #expect(titles == ["Groceries"])
        #expect(try await Sync.background() == "Up to date")
        #expect(try await Sync.refusedTable().hasPrefix("counter: "))
    }

    @MainActor
    @Test func collaborativeTextKeepsBothOfflineEdits() async throws {
        let (phone, laptop) = try await Sync.collaborativeNote()
        #expect(phone == "Sunday\nMilk\nBread, the good kind")
        #expect(laptop == phone)
    }
}
