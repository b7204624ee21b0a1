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

// The same table read with its rowid, as a model may declare it.
struct NumberedText: Equatable, Sendable {
    var rowid: Int
    var title: String
    var notes: String
}

extension NumberedText: FTS5 {
    struct TableColumns: TableDefinition {
        typealias Root = NumberedText
        let rowid = TableColumn<NumberedText, Int>("rowid")
        let title = TableColumn<NumberedText, String>("title")
        let notes = TableColumn<NumberedText, String>("notes")
        static let allColumns: [ColumnSchema] = [
            .init("rowid", as: Int.self), .init("title", as: String.self), .init("notes", as: String.self),
        ]
    }
    static let columns = TableColumns()
    static var tableName: String { "reminderText" }

    init(decoder: inout RowDecoder) throws(BoutiqueError) {
        rowid = try decoder.decode(Int.self)
        title = try decoder.decode(String.self)
        notes = try decoder.decode(String.self)
    }

    func encodeColumns(into encoder: inout RowEncoder) {
        encoder.encode(rowid, as: Int.self)
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

    @Test func bm25WeighsEachColumn() throws {
        let weighted = ReminderText.where { $0.match("eggs") }
            .order { $0.bm25([\.notes: 1, \.title: 100]) }
            .select { $0.title }
        #expect(weighted.sql.hasSuffix(#"ORDER BY bm25("reminderText", ?, ?)"#))
        #expect(weighted.bindings == [.text("eggs"), .real(100), .real(1)], "one weight per column, in table order")
        #expect(try weighted.fetchAll(db) == ["Bake", "Groceries"])
        try db.execute("INSERT INTO reminderText (rowid, title, notes) VALUES (4, 'Eggs', 'breakfast')")
        // Weighted by title, the one title match outranks three body matches; alike, it does not.
        #expect(try weighted.fetchAll(db) == ["Eggs", "Bake", "Groceries"])
        let alike = ReminderText.where { $0.match("eggs") }.order { $0.bm25() }.select { $0.title }
        #expect(try alike.fetchAll(db).first == "Bake")
    }

    @Test func aBM25WeightForSomethingThatIsNoColumnFailsTheStatement() throws {
        let query = ReminderText.where { $0.match("eggs") }.order { $0.bm25([\.rank: 2]) }.select { $0.title }
        #expect(throws: BoutiqueError.self) { try query.fetchAll(db) }
        do {
            _ = try query.fetchAll(db)
        } catch {
            #expect("\(error)".contains("bm25 was given a weight for a key path that is not a column of reminderText"))
        }
    }

    @Test func aRowIDPropertyIsNoColumnOfTheTable() throws {
        // `rowid` first: highlight's column numbers count only the FTS5 table's columns.
        let query = NumberedText.where { $0.match("milk") }.select { ($0.rowid, $0.notes.highlight("[", "]")) }
        #expect(query.sql.hasPrefix(#"SELECT "reminderText"."rowid", highlight("reminderText", 1, ?, ?)"#))
        let rows = try query.fetchAll(db)
        #expect(rows.map(\.0) == [1] && rows.map(\.1) == ["[milk] and eggs"])
        let row = try NumberedText.where { $0.match("friday") }.fetchOne(db)
        #expect(row == NumberedText(rowid: 3, title: "Haircut", notes: "Friday"))
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
