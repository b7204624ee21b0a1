import BoutiqueDB
import Foundation
import Testing

/// The FTS5 index of the seed's notes: the key to find a note again, and the text.
@Table
struct NoteSearch: FTS5, Equatable {
    let id: UUID
    let title: String
    let body: String
}

/// The seed's plan with a search index over its notes.
enum SearchMigrations {
    static let plan = BoutiqueMigrationPlan {
        AppMigrations.plan
        BoutiqueMigration("v3_search_notes") { conn in
            try conn.createFTS5Table(NoteSearch.self, content: Note.self, tokenizer: .porter())
        }
    }
}

/// An FTS5 table made by a migration indexes its content table and follows every insert, update and
/// delete of it, whatever writes them.
@Suite struct FullTextSearchTests {
    private func open(_ plan: BoutiqueMigrationPlan = SearchMigrations.plan) async throws -> DatabaseActor {
        try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: plan)
    }

    /// Titles of the notes matching `pattern`, best first.
    private func search(_ pattern: String, in database: DatabaseActor) async throws -> [String] {
        try await database.read { conn in
            try NoteSearch.where { $0.match(pattern) }.order { $0.rank }.select { $0.title }.fetchAll(conn)
        }
    }

    @Test func theMigrationCreatesAnExternalContentTableAndItsTriggers() async throws {
        let database = try await open()
        let objects = try await database.read { conn in
            try conn.fetchAll(
                "SELECT type, name, sql FROM sqlite_schema WHERE name LIKE 'noteSearch%' AND type IN ('table', 'trigger') ORDER BY type, name")
        }
        #expect(objects.map { $0["name"] } == [
            .text("noteSearch"), .text("noteSearch_config"), .text("noteSearch_data"), .text("noteSearch_docsize"),
            .text("noteSearch_idx"), .text("noteSearch_after_delete"), .text("noteSearch_after_insert"),
            .text("noteSearch_after_update"),
        ])
        #expect(objects[0]["sql"] == .text("""
            CREATE VIRTUAL TABLE "noteSearch" USING fts5("id" UNINDEXED, "title", "body", content='note', \
            tokenize = 'porter unicode61 remove_diacritics 2')
            """))
        await database.close()
    }

    @Test func searchFollowsInsertsUpdatesAndDeletes() async throws {
        let database = try await open()
        let groceries = UUID()
        let plumber = UUID()
        try await database.write { conn in
            try Note.insert {
                Note(id: groceries, title: "Groceries", body: "oat milk, lemons")
                Note(id: plumber, title: "Call the plumber", body: "before Friday, the sink leaks")
            }.execute(conn)
        }
        // The porter stemmer: "lemon" finds "lemons", "calling" finds "Call".
        #expect(try await search("lemon", in: database) == ["Groceries"])
        #expect(try await search("calling", in: database) == ["Call the plumber"])
        let found = try await database.read { conn in
            try NoteSearch.where { $0.match("milk") }.fetchAll(conn)
        }
        #expect(found == [NoteSearch(id: groceries, title: "Groceries", body: "oat milk, lemons")])

        try await database.write { conn in
            try Note.update { $0.body = "coffee, sugar" }.where { $0.id == groceries }.execute(conn)
        }
        #expect(try await search("lemon", in: database).isEmpty, "the old words are gone from the index")
        #expect(try await search("coffee", in: database) == ["Groceries"])

        // An update of no indexed column leaves the index as it is, and the note still found.
        try await database.write { conn in
            try Note.update { $0.updatedAt = Date(timeIntervalSince1970: 5) }.where { $0.id == groceries }.execute(conn)
        }
        #expect(try await search("coffee", in: database) == ["Groceries"])

        try await database.write { conn in try Note.where { $0.id == plumber }.delete().execute(conn) }
        #expect(try await search("plumber OR sink", in: database).isEmpty)
        let integrity = try await database.read { conn in
            try conn.fetchValue(#"SELECT count(*) FROM "noteSearch" WHERE "noteSearch" MATCH 'coffee OR sugar'"#)
        }
        #expect(integrity == .integer(1))
        try await database.write { conn in
            // FTS5's own check that the index matches the content table, row for row.
            try conn.execute(#"INSERT INTO "noteSearch"("noteSearch", rank) VALUES ('integrity-check', 1)"#)
        }
        await database.close()
    }

    @Test func rankedResultsComeWithHighlightsAndSnippets() async throws {
        let database = try await open()
        try await database.write { conn in
            try Note.insert {
                Note(id: UUID(), title: "Lemons", body: "lemon tart, lemon curd and more lemons")
                Note(id: UUID(), title: "Groceries", body: "oat milk, a lemon")
                Note(id: UUID(), title: "Haircut", body: "Friday")
            }.execute(conn)
        }
        let query = NoteSearch.where { $0.match("lemon") }
            .order { $0.bm25([\.title: 10, \.body: 1]) }
            .select { ($0.title.highlight("[", "]"), $0.body.snippet("[", "]", "…", 4)) }
        #expect(query.sql.hasSuffix(#"WHERE ("noteSearch" MATCH ?) ORDER BY bm25("noteSearch", ?, ?, ?)"#))
        let rows = try await database.read { conn in try query.fetchAll(conn) }
        #expect(rows.map(\.0) == ["[Lemons]", "Groceries"])
        #expect(rows.map(\.1) == ["[lemon] tart, [lemon] curd…", "oat milk, a [lemon]"])
        await database.close()
    }

    @Test func theMigrationIndexesTheRowsAlreadyThere() async throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("search.db")
        var file = try await DatabaseActor.open(url: url, migrations: AppMigrations.plan)
        try await file.write { conn in
            try Note.insert {
                Note(id: UUID(), title: "Groceries", body: "oat milk")
                Note(id: UUID(), title: "Garden", body: "water the lemon tree")
            }.execute(conn)
        }
        await file.close()
        file = try await DatabaseActor.open(url: url, migrations: SearchMigrations.plan)
        #expect(try await search("lemon", in: file) == ["Garden"])
        #expect(try await search("milk", in: file) == ["Groceries"])

        // A rebuild repairs an index that rows written with triggers off left behind.
        try await file.write { conn in
            try conn.connection.setTriggersEnabled(false)
            defer { try? conn.connection.setTriggersEnabled(true) }
            try Note.insert { Note(id: UUID(), title: "Hidden", body: "written without triggers") }.execute(conn)
        }
        #expect(try await search("hidden", in: file).isEmpty)
        try await file.write { conn in try conn.rebuildFTS5Table(NoteSearch.self) }
        #expect(try await search("hidden", in: file) == ["Hidden"])
        await file.close()
    }

    @Test func aLiveSearchRefreshesWhenTheNotesChange() async throws {
        let database = try await open()
        var results = database.observe(
            NoteSearch.where { $0.match("lemon") }.order { $0.rank }.select { $0.title }
        ).makeAsyncIterator()
        #expect(try await results.next() == [])
        try await database.write { conn in
            try Note.insert { Note(id: UUID(), title: "Groceries", body: "lemons") }.execute(conn)
        }
        #expect(try await results.next() == ["Groceries"])
        await database.close()
    }

    @Test func droppingTakesTheTriggersAlong() async throws {
        let plan = BoutiqueMigrationPlan {
            SearchMigrations.plan
            BoutiqueMigration("v4_no_search") { conn in try conn.dropFTS5Table(NoteSearch.self) }
        }
        let database = try await open(plan)
        let left = try await database.read { conn in
            try conn.fetchValue("SELECT count(*) FROM sqlite_schema WHERE name LIKE 'noteSearch%'")
        }
        #expect(left == .integer(0))
        try await database.write { conn in
            try Note.insert { Note(id: UUID(), title: "Still", body: "writable") }.execute(conn)
        }
        await database.close()
    }

    @Test func modelsThatDoNotFitTheDatabaseAreRefusedByName() async throws {
        let cases: [(String, @Sendable (DatabaseConnection) throws -> Void, String)] = [
            ("missing column", { try $0.createFTS5Table(MisfitSearch.self, content: Note.self) },
             "the FTS5 table 'misfitSearch' has a column 'summary' that its content table 'note' lacks"),
            ("missing content table", { try $0.createFTS5Table(NoteSearch.self, content: Absent.self) },
             "the content table 'absent' of the FTS5 table 'noteSearch' does not exist"),
            ("without rowid", { try $0.createFTS5Table(LabelSearch.self, content: Keyed.self) },
             "the content table 'keyed' is WITHOUT ROWID"),
            ("reserved name", { try $0.createFTS5Table(RankSearch.self, content: Ranked.self) },
             "cannot have a column named 'rank'"),
            ("nothing to index", { try $0.createFTS5Table(KeySearch.self, content: Note.self) },
             "has no text column to index"),
            ("NUL in the tokenizer", {
                try $0.createFTS5Table(NoteSearch.self, content: Note.self, tokenizer: .unicode61(tokenCharacters: "a\u{0}"))
            }, "NUL"),
        ]
        for (name, body, message) in cases {
            let plan = BoutiqueMigrationPlan {
                AppMigrations.plan
                BoutiqueMigration("v3_other_tables") { conn in
                    try conn.execute("CREATE TABLE keyed(id TEXT PRIMARY KEY NOT NULL, label TEXT NOT NULL) WITHOUT ROWID")
                    try conn.execute("CREATE TABLE ranked(id TEXT PRIMARY KEY NOT NULL, rank TEXT NOT NULL)")
                }
                BoutiqueMigration("v4_search", body)
            }
            do {
                let database = try await open(plan)
                await database.close()
                Issue.record("\(name): the migration was applied")
            } catch let error as BoutiqueError {
                guard case .migrationFailed(let id, let text) = error else {
                    Issue.record("\(name): \(error)")
                    continue
                }
                #expect(id == "v4_search")
                #expect(text.contains(message), "\(name): \(text)")
            }
        }
    }

    @Test func namesAreQuotedAndTokenizerCharactersCannotEndTheOption() async throws {
        let plan = BoutiqueMigrationPlan {
            BoutiqueMigration("v1_odd_names") { conn in
                try conn.execute(#"CREATE TABLE "odd ""table"""(id TEXT PRIMARY KEY NOT NULL, "we""ird" TEXT NOT NULL)"#)
                try conn.createFTS5Table(
                    OddSearch.self, content: OddContent.self,
                    tokenizer: .unicode61(tokenCharacters: #"'"),=tokenize"#))
            }
        }
        let database = try await open(plan)
        try await database.write { conn in
            try OddContent.insert { OddContent(id: "1", weird: "it's a we'ird), test") }.execute(conn)
        }
        let found = try await database.read { conn in
            try OddSearch.where { $0.match(#""we'ird),""#) }.select { $0.weird }.fetchAll(conn)
        }
        #expect(found == ["it's a we'ird), test"], "the quote, parenthesis and comma are token characters")
        await database.close()
    }
}

/// A search model with a column its content table lacks.
@Table
struct MisfitSearch: FTS5 {
    let title: String
    let summary: String
}

/// A table the search migration above never creates.
@Table
struct Absent: Sendable {
    let title: String
}

@Table("keyed")
struct Keyed: Sendable {
    @Column(primaryKey: true) let id: String
    let label: String
}

@Table
struct LabelSearch: FTS5 {
    let label: String
}

/// Nothing to index: the only column is the content's key.
@Table
struct KeySearch: FTS5 {
    let id: String
}

@Table("ranked")
struct Ranked: Sendable {
    @Column(primaryKey: true) let id: String
    let rank: String
}

@Table
struct RankSearch: FTS5 {
    let rank: String
}

@Table(#"odd "table""#)
struct OddContent: Sendable {
    @Column(primaryKey: true) let id: String
    @Column(#"we"ird"#) let weird: String
}

@Table(#"odd "search""#)
struct OddSearch: FTS5 {
    @Column(#"we"ird"#) let weird: String
}
