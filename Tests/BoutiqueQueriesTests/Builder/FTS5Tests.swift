import BoutiqueQueries
import BoutiqueSQLite
import Testing

// An FTS5 table written out by hand, in the shape `@Table` generates.
struct ReminderText: Equatable, Sendable {
    var title: String
    var notes: String
}

extension ReminderText: FTS5 {
    struct TableColumns: TableDefinition {
        typealias Root = ReminderText
        let title = TableColumn<ReminderText, String>("title")
        let notes = TableColumn<ReminderText, String>("notes")
        static let allColumns: [ColumnSchema] = [.init("title", as: String.self), .init("notes", as: String.self)]
    }
    static let columns = TableColumns()
    static var tableName: String { "reminderText" }

    init(decoder: inout RowDecoder) throws(BoutiqueError) {
        title = try decoder.decode(String.self)
        notes = try decoder.decode(String.self)
    }

    func encodeColumns(into encoder: inout RowEncoder) {
        encoder.encode(title, as: String.self)
        encoder.encode(notes, as: String.self)
    }
}

@Suite("Full-text search")
struct FTS5Tests {
    let db: Connection
    init() throws {
        db = try Connection(path: ":memory:")
        try db.execute("""
            CREATE VIRTUAL TABLE reminderText USING fts5(title, notes);
            INSERT INTO reminderText (rowid, title, notes) VALUES
                (1, 'Groceries', 'milk and eggs'),
                (2, 'Bake', 'buy eggs, eggs and more eggs'),
                (3, 'Haircut', 'Friday');
            """)
    }

    @Test func matchOnTheTable() throws {
        let query = ReminderText.where { $0.match("eggs") }.order { $0.title }.select { $0.title }
        #expect(query.sql.hasSuffix(#"WHERE ("reminderText" MATCH ?) ORDER BY "reminderText"."title""#))
        #expect(query.bindings == [.text("eggs")])
        #expect(try query.fetchAll(db) == ["Bake", "Groceries"])
    }

    @Test func matchOnAColumn() throws {
        let query = ReminderText.where { $0.title.match("haircut") }.select { $0.notes }
        #expect(query.sql.hasSuffix(#"WHERE ("reminderText"."title" MATCH ?)"#))
        #expect(try query.fetchAll(db) == ["Friday"])
        #expect(try ReminderText.where { $0.title.match("eggs") }.fetchAll(db).isEmpty)
    }

    @Test func rankAndBM25OrderTheBestMatchFirst() throws {
        let byRank = ReminderText.where { $0.match("eggs") }.order { $0.rank }.select { $0.title }
        #expect(byRank.sql.hasSuffix(#"ORDER BY "reminderText"."rank""#))
        #expect(try byRank.fetchAll(db) == ["Bake", "Groceries"])
        let byBM25 = ReminderText.where { $0.match("eggs") }.order { $0.bm25() }.select { $0.title }
        #expect(byBM25.sql.hasSuffix(#"ORDER BY bm25("reminderText")"#))
        #expect(try byBM25.fetchAll(db) == ["Bake", "Groceries"])
    }

    @Test func highlightAndSnippetMarkTheMatch() throws {
        let highlighted = ReminderText.where { $0.match("milk") }.select { $0.notes.highlight("[", "]") }
        #expect(highlighted.sql.hasPrefix(#"SELECT highlight("reminderText", 1, ?, ?)"#))
        #expect(highlighted.bindings.prefix(2) == [.text("["), .text("]")])
        #expect(try highlighted.fetchAll(db) == ["[milk] and eggs"])
        let snippet = ReminderText.where { $0.match("more") }.select { $0.notes.snippet("<", ">", "…", 2) }
        #expect(snippet.sql.hasPrefix(#"SELECT snippet("reminderText", 1, ?, ?, ?, ?)"#))
        #expect(try snippet.fetchAll(db) == ["…<more> eggs"])
    }
}
