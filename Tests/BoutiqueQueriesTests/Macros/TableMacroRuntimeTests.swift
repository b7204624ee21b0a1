import BoutiqueQueries
import BoutiqueSQLite
import Foundation
import Testing

/// `@Table` models used for real: rows written by SQL decode into them, and they encode what the
/// schema expects.
@Suite struct TableMacroRuntimeTests {
    typealias Note = MacroModels.Note

    /// The product description's two migrations.
    static let migrations = [
        """
        CREATE TABLE note (
            id TEXT PRIMARY KEY NOT NULL,
            title TEXT NOT NULL,
            body TEXT NOT NULL,
            updatedAt REAL NOT NULL
        )
        """,
        "ALTER TABLE note ADD COLUMN isPinned INTEGER NOT NULL DEFAULT 0",
    ]

    @Test func seedModelDescribesTheSeedTable() {
        #expect(Note.tableName == "note")
        #expect(Note.TableColumns.allColumns.map(\.name) == ["id", "title", "body", "updatedAt"])
        #expect(Note.TableColumns.allColumns.map(\.sqlType) == [.text, .text, .text, .real])
        #expect(Note.TableColumns.allColumns.map(\.isPrimaryKey) == [true, false, false, false])
        #expect(Note.columns.primaryKey.name == "id")
        #expect(Note.columns.title.queryFragment.sql == #""note"."title""#)
    }

    @Test func decodesARowWrittenBySQL() throws {
        let connection = try Connection(path: ":memory:")
        try connection.execute(Self.migrations[0])
        try connection.execute(
            "INSERT INTO note (id, title, body, updatedAt) VALUES ('0F8FAD5B-D9CB-469F-A165-70867728950E', 'Groceries', 'milk', 1700000000.5)")
        let statement = try connection.prepare(MacroTestSupport.selectAll(Note.self))
        #expect(try statement.step())
        var decoder = RowDecoder(statement: statement, source: "note")
        let note = try Note(decoder: &decoder)
        #expect(note.id == UUID(uuidString: "0f8fad5b-d9cb-469f-a165-70867728950e"))
        #expect(note.title == "Groceries")
        #expect(note.body == "milk")
        #expect(note.updatedAt == Date(timeIntervalSince1970: 1_700_000_000.5))
        #expect(decoder.columnIndex == 4)
    }

    @Test func secondMigrationColumnDecodesWithItsDefault() throws {
        let connection = try Connection(path: ":memory:")
        for migration in Self.migrations { try connection.execute(migration) }
        let id = UUID()
        try connection.execute(
            "INSERT INTO note (id, title, body, updatedAt) VALUES (?, 'a', 'b', 0)", [.text(id.uuidString.lowercased())])
        let notes = try MacroTestSupport.fetchAll(MacroModels.PinnableNote.self, from: connection)
        #expect(notes == [MacroModels.PinnableNote(id: id, title: "a", body: "b", updatedAt: Date(timeIntervalSince1970: 0))])
        #expect(MacroModels.PinnableNote.TableColumns.allColumns.last?.defaultValue == .integer(0))
    }

    @Test func encodedRowRoundTrips() throws {
        let connection = try Connection(path: ":memory:")
        try connection.execute(Self.migrations[0])
        let note = Note(id: UUID(), title: "O'Brien \"quoted\"", body: "🦆\u{0}end", updatedAt: Date(timeIntervalSince1970: 12.25))
        try MacroTestSupport.insert(Note.self, values: MacroTestSupport.encoded(note), into: connection)
        #expect(try MacroTestSupport.fetchAll(Note.self, from: connection) == [note])
    }

    @Test func decodingErrorNamesTableAndColumn() throws {
        let connection = try Connection(path: ":memory:")
        try connection.execute(Self.migrations[0])
        try connection.execute("INSERT INTO note VALUES ('not a uuid', 't', 'b', 0)")
        #expect(throws: BoutiqueError.decoding(.init(table: "note", column: "id", expectedType: "UUID", found: "TEXT 'not a uuid'"))) {
            try MacroTestSupport.fetchAll(Note.self, from: connection)
        }
    }

    @Test func richModelSkipsGeneratedColumnsWhenWriting() throws {
        let connection = try Connection(path: ":memory:")
        try MacroModels.RichNote.createTable().execute(connection)
        let created = Date(timeIntervalSince1970: 1_800_000_000)
        var note = MacroModels.RichNote(
            id: UUID(), title: "Hello", body: "text", createdAt: created, updatedAt: created, rating: 4, titleLower: "")
        note.isSelected = true
        let values = MacroTestSupport.encoded(note)
        #expect(values.count == 7)
        #expect(values[3] == .text("2027-01-15T08:00:00.000Z"))
        try MacroTestSupport.insert(MacroModels.RichNote.self, values: values, into: connection)
        let rows = try MacroTestSupport.fetchAll(MacroModels.RichNote.self, from: connection)
        #expect(rows.count == 1)
        #expect(rows.first?.titleLower == "hello")  // computed by SQLite
        #expect(rows.first?.isSelected == false)     // ephemeral: back to its default
        #expect(rows.first?.rating == 4)
        #expect(rows.first?.body == "text")
        #expect(rows.first?.createdAt == created)
    }

    @Test func draftLeavesTheKeyToTheDatabase() throws {
        let connection = try Connection(path: ":memory:")
        try MacroModels.Tag.createTable().execute(connection)
        let draft = MacroModels.Tag.Draft(name: "swift")
        let values = MacroTestSupport.encoded(draft: draft)
        #expect(values == [.null, .text("swift"), .real(-1.5), .integer(0), .integer(0), .null])
        try MacroTestSupport.insert(MacroModels.Tag.self, values: values, into: connection)
        try MacroTestSupport.insert(MacroModels.Tag.self, values: MacroTestSupport.encoded(draft: MacroModels.Tag.Draft()), into: connection)
        let tags = try MacroTestSupport.fetchAll(MacroModels.Tag.self, from: connection, orderBy: "id")
        #expect(tags == [
            MacroModels.Tag(id: 1, name: "swift", weight: -1.5, count: 0, isHidden: false, note: nil),
            MacroModels.Tag(id: 2, name: "it's", weight: -1.5, count: 0, isHidden: false, note: nil),
        ])
    }

    @Test func draftKeepsAnExplicitKey() {
        let id = UUID()
        let draft = Note.Draft(id: id, title: "t", body: "b", updatedAt: Date(timeIntervalSince1970: 1))
        #expect(MacroTestSupport.encoded(draft: draft) == [.text(id.uuidString.lowercased()), .text("t"), .text("b"), .real(1)])
    }

    @Test func tableWithoutKeyHasNoDraft() {
        // Asked at run time, of the models as plain tables.
        let models: [any Table.Type] = [MacroModels.LogLine.self, MacroModels.Note.self]
        #expect(models.map { $0 is any PrimaryKeyedTable.Type } == [false, true])
        #expect(MacroModels.LogLine.TableColumns.allColumns.map(\.isNullable) == [false, false, true])
        #expect(MacroModels.LogLine.TableColumns.allColumns.map(\.sqlType) == [.text, .integer, .integer])
    }

    @Test func optionalRepresentationStoresNull() throws {
        let connection = try Connection(path: ":memory:")
        try MacroModels.LogLine.createTable().execute(connection)
        let lines = [
            MacroModels.LogLine(message: "a", level: 1, loggedAt: Date(timeIntervalSince1970: 99)),
            MacroModels.LogLine(message: "b", level: 2, loggedAt: nil),
        ]
        for line in lines {
            try MacroTestSupport.insert(MacroModels.LogLine.self, values: MacroTestSupport.encoded(line), into: connection)
        }
        #expect(try connection.fetchRows("SELECT loggedAt FROM logLine ORDER BY level").rows == [[.integer(99)], [.null]])
        #expect(try MacroTestSupport.fetchAll(MacroModels.LogLine.self, from: connection, orderBy: "level") == lines)
    }

    @Test func tableColumnsExpressionListsEveryColumn() {
        #expect(Note.columns.queryFragment.sql == #""note"."id", "note"."title", "note"."body", "note"."updatedAt""#)
    }
}
