import BoutiqueQueries
import BoutiqueSQLite
import Foundation
import Testing

/// The `CREATE TABLE` statements `@BoutiqueTable` models render, as text and run against SQLite.
@Suite struct CreateTableTests {
    @Test func richNoteStatementText() {
        #expect(MacroModels.RichNote.createTableSQL == """
            CREATE TABLE "note" ("id" TEXT PRIMARY KEY NOT NULL, "title" TEXT NOT NULL, "body_text" TEXT NOT NULL, \
            "createdAt" TEXT NOT NULL, "updatedAt" REAL NOT NULL, "isPinned" INTEGER NOT NULL DEFAULT 0, \
            "rating" INTEGER, "titleLower" TEXT GENERATED ALWAYS AS (lower(title)) VIRTUAL) STRICT, WITHOUT ROWID
            """)
    }

    @Test func literalDefaultsAreEscaped() {
        #expect(MacroModels.Tag.createTable(ifNotExists: true).sql == """
            CREATE TABLE IF NOT EXISTS "tags" ("id" INTEGER PRIMARY KEY NOT NULL, "name" TEXT NOT NULL DEFAULT 'it''s', \
            "weight" REAL NOT NULL DEFAULT -1.5, "count" INTEGER NOT NULL DEFAULT 0, \
            "isHidden" INTEGER NOT NULL DEFAULT 0, "note" TEXT DEFAULT NULL) STRICT
            """)
    }

    @Test func tableWithoutOptions() {
        #expect(MacroModels.LogLine.createTableSQL == """
            CREATE TABLE "logLine" ("message" TEXT NOT NULL, "level" INTEGER NOT NULL DEFAULT 0, "loggedAt" INTEGER)
            """)
    }

    @Test func statementsRunAndDeclareWhatTheyRender() throws {
        let connection = try Connection(path: ":memory:")
        try MacroModels.RichNote.createTable().execute(connection)
        try MacroModels.Tag.createTable().execute(connection)
        try MacroModels.LogLine.createTable().execute(connection)
        // Running it again fails; the IF NOT EXISTS form does not.
        #expect(throws: BoutiqueError.self) { try MacroModels.Tag.createTable().execute(connection) }
        try MacroModels.Tag.createTable(ifNotExists: true).execute(connection)
        let stored = try connection.fetchValue("SELECT sql FROM sqlite_schema WHERE name = 'tags'")
        #expect(stored == .text(MacroModels.Tag.createTableSQL))
        let options = try connection.fetchRows("SELECT name, wr, strict FROM pragma_table_list WHERE schema = 'main' ORDER BY name")
        #expect(options.rows == [
            [.text("logLine"), .integer(0), .integer(0)],
            [.text("note"), .integer(1), .integer(1)],
            [.text("sqlite_schema"), .integer(0), .integer(0)],
            [.text("tags"), .integer(0), .integer(1)],
        ])
    }

    @Test func strictTableRefusesWrongTypes() throws {
        let connection = try Connection(path: ":memory:")
        try MacroModels.Tag.createTable().execute(connection)
        #expect(throws: SQLiteError.self) {
            try connection.execute("INSERT INTO tags (name, weight, count, isHidden) VALUES ('a', 1.0, 'many', 0)")
        }
    }

    @Test func generatedColumnIsReadOnly() throws {
        let connection = try Connection(path: ":memory:")
        try MacroModels.RichNote.createTable().execute(connection)
        #expect(throws: SQLiteError.self) {
            try connection.execute(
                "INSERT INTO note (id, title, body_text, createdAt, updatedAt, titleLower) VALUES ('x', 'A', '', '', 0, 'a')")
        }
    }

    @Test func literalRendering() {
        #expect(SQLLiteral.render(.text("a'b''c")) == "'a''b''''c'")
        // A quote with a combining mark is one Character, but its quote byte is doubled all the same.
        #expect(SQLLiteral.render(.text("a'\u{301}b")) == "'a''\u{301}b'")
        #expect(SQLLiteral.render(.text("nul\u{0}byte")) == "(CAST(X'6E756C0062797465' AS TEXT))")
        #expect(SQLLiteral.render(.blob([0x00, 0xAB])) == "X'00AB'")
        #expect(SQLLiteral.render(.real(.infinity)) == "9e999")
        #expect(SQLLiteral.render(.real(.nan)) == "NULL")
        #expect(SQLLiteral.render(.integer(.min)) == "-9223372036854775808")
    }

    @Test func renderedLiteralsReadBackAsTheirValues() throws {
        let connection = try Connection(path: ":memory:")
        let values: [DatabaseValue] = [
            .text("') OR 1=1 --"), .text("'\u{301}) OR 1=1 --"), .text("nul\u{0}byte"), .text("🦆"), .real(1e-5),
            .real(-0.5), .integer(.min), .blob([1, 2]),
        ]
        for value in values {
            #expect(try connection.fetchValue("SELECT \(SQLLiteral.render(value))") == value)
        }
    }
}
