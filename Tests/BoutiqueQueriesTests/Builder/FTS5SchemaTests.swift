import BoutiqueQueries
import BoutiqueSQLite
import Foundation
import Testing

@Table("memo")
struct Memo: Sendable {
    @Column(primaryKey: true) let id: UUID
    var title: String
    var body: String
    var updatedAt: Date
}

@Table
struct MemoSearch: FTS5 {
    let rowid: Int
    let id: UUID
    let title: String
    let body: String
    let updatedAt: Date
}

/// The statements that create an FTS5 index over a content table, and what the change log reads back
/// from them.
@Suite("Full-text search: schema")
struct FTS5SchemaTests {
    @Test func theStatementsOfAnExternalContentIndex() {
        let statement = CreateFTS5TableStatement(MemoSearch.self, content: Memo.self, tokenizer: .porter())
        #expect(statement.statements == [
            #"CREATE VIRTUAL TABLE "memoSearch" USING fts5("id" UNINDEXED, "title", "body", "updatedAt" UNINDEXED, content='memo', tokenize = 'porter unicode61 remove_diacritics 2')"#,
            #"CREATE TRIGGER "memoSearch_after_insert" AFTER INSERT ON "memo" BEGIN INSERT INTO "memoSearch"(rowid, "id", "title", "body", "updatedAt") VALUES (new.rowid, new."id", new."title", new."body", new."updatedAt"); END"#,
            #"CREATE TRIGGER "memoSearch_after_delete" AFTER DELETE ON "memo" BEGIN INSERT INTO "memoSearch"("memoSearch", rowid, "id", "title", "body", "updatedAt") VALUES ('delete', old.rowid, old."id", old."title", old."body", old."updatedAt"); END"#,
            #"CREATE TRIGGER "memoSearch_after_update" AFTER UPDATE ON "memo" WHEN old.rowid IS NOT new.rowid OR old."title" IS NOT new."title" OR old."body" IS NOT new."body" BEGIN INSERT INTO "memoSearch"("memoSearch", rowid, "id", "title", "body", "updatedAt") VALUES ('delete', old.rowid, old."id", old."title", old."body", old."updatedAt"); INSERT INTO "memoSearch"(rowid, "id", "title", "body", "updatedAt") VALUES (new.rowid, new."id", new."title", new."body", new."updatedAt"); END"#,
            #"INSERT INTO "memoSearch"("memoSearch") VALUES ('rebuild')"#,
        ])
        #expect(statement.sql.hasPrefix(#"CREATE VIRTUAL TABLE "memoSearch" USING fts5("#))
        #expect(statement.sql.hasSuffix(#"INSERT INTO "memoSearch"("memoSearch") VALUES ('rebuild');"#))
        #expect(statement.sql.split(separator: "\n").count == 5)
    }

    @Test func theStatementsRunAndTheIndexFindsTheRows() throws {
        let db = try Connection(path: ":memory:")
        try db.execute(#"CREATE TABLE memo(id TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL, body TEXT NOT NULL, updatedAt REAL NOT NULL)"#)
        let id = UUID()
        try Memo.insert { Memo(id: id, title: "Groceries", body: "lemons and limes", updatedAt: Date(timeIntervalSince1970: 1)) }
            .execute(db)
        try db.execute(CreateFTS5TableStatement(MemoSearch.self, content: Memo.self, tokenizer: .porter()).sql)
        let found = try MemoSearch.where { $0.match("lemon") }.fetchAll(db)
        #expect(found.map(\.id) == [id] && found.map(\.rowid) == [1] && found.map(\.updatedAt) == [Date(timeIntervalSince1970: 1)])
        #expect(try MemoSearch.where { $0.match("limes") }.select { $0.body.highlight("<", ">") }.fetchAll(db) == ["lemons and <limes>"])
    }

    @Test func tokenizerOptionsAreQuotedTwice() {
        func option(_ tokenizer: FTS5Tokenizer) -> String {
            let sql = CreateFTS5TableStatement(MemoSearch.self, content: Memo.self, tokenizer: tokenizer).statements[0]
            return String(sql[sql.range(of: "tokenize")!.lowerBound...].dropLast())
        }
        #expect(option(.unicode61()) == "tokenize = 'unicode61 remove_diacritics 2'")
        #expect(option(.unicode61(removeDiacritics: .keep, separators: "x")) == "tokenize = 'unicode61 remove_diacritics 0 separators x'")
        #expect(option(.ascii(tokenCharacters: "-_")) == "tokenize = 'ascii tokenchars ''-_'''")
        #expect(option(.trigram(caseSensitive: true)) == "tokenize = 'trigram case_sensitive 1'")
        #expect(option(.porter(.ascii())) == "tokenize = 'porter ascii'")
        // A quote inside the characters is doubled at each level: FTS5's argument, then the SQL string.
        #expect(option(.unicode61(tokenCharacters: "'")) == "tokenize = 'unicode61 remove_diacritics 2 tokenchars " + String(repeating: "'", count: 9))
    }

    @Test func theTrigramTokenizerFindsSubstrings() throws {
        let db = try Connection(path: ":memory:")
        try db.execute(#"CREATE TABLE memo(id TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL, body TEXT NOT NULL, updatedAt REAL NOT NULL)"#)
        try Memo.insert { Memo(id: UUID(), title: "Groceries", body: "oat milk", updatedAt: Date()) }.execute(db)
        try db.execute(CreateFTS5TableStatement(MemoSearch.self, content: Memo.self, tokenizer: .trigram()).sql)
        #expect(try MemoSearch.where { $0.match("ilk") }.select { $0.title }.fetchAll(db) == ["Groceries"])
    }

    @Test func declarationsAreReadAsSQLiteReadsThem() {
        /// "fts5 over X", "fts5 storing its text", or "not fts5".
        func reading(_ sql: String) -> String {
            guard let declaration = FTS5Declaration.parse(sql) else { return "not fts5" }
            return declaration.contentTable.map { "fts5 over \($0)" } ?? "fts5 storing its text"
        }
        #expect(reading(#"CREATE VIRTUAL TABLE "memoSearch" USING fts5("title", content='memo', tokenize = 'porter')"#) == "fts5 over memo")
        #expect(reading("CREATE VIRTUAL TABLE t USING fts5(a, b)") == "fts5 storing its text")
        #expect(reading("create virtual table if not exists main.t using FTS5 (a, content = '')") == "fts5 over ")
        // Quotes, commas and comments inside names and values mislead nothing.
        #expect(reading(#"CREATE VIRTUAL TABLE "a USING b" USING fts5("x, content='no'", /* content='nope' */ content="it's ""odd""")"#)
            == #"fts5 over it's "odd""#)
        #expect(reading(#"CREATE VIRTUAL TABLE t USING fts5(a, content='we''ird')"#) == "fts5 over we'ird")
        #expect(reading("CREATE VIRTUAL TABLE t USING fts4(a, content='memo')") == "not fts5")
        #expect(reading("CREATE VIRTUAL TABLE t USING rtree(id, x0, x1)") == "not fts5")
        #expect(reading("CREATE TABLE fts5(a)") == "not fts5")
        #expect(FTS5Declaration.storageTables(of: "memoSearch") == [
            "memoSearch_config", "memoSearch_content", "memoSearch_data", "memoSearch_docsize", "memoSearch_idx",
        ])
    }
}
