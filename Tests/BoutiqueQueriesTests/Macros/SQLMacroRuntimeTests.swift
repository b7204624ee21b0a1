import BoutiqueQueries
import BoutiqueSQLite
import Foundation
import Testing

/// `#sql` for real: what it renders, and that interpolated values are bound, never spliced.
@Suite struct SQLMacroRuntimeTests {
    typealias Note = MacroModels.Note

    static func database() throws -> Connection {
        let connection = try Connection(path: ":memory:")
        try connection.execute(TableMacroRuntimeTests.migrations[0])
        return connection
    }

    @Test func rendersTablesColumnsAndBindings() {
        let title = "Groceries"
        let query = #sql("SELECT \(Note.columns) FROM \(Note.self) WHERE \(Note.columns.title) = \(title) AND 1 = \(1)")
        #expect(query.sql == #"SELECT "note"."id", "note"."title", "note"."body", "note"."updatedAt" FROM "note" WHERE "note"."title" = ? AND 1 = ?"#)
        #expect(query.bindings == [.text("Groceries"), .integer(1)])
    }

    @Test func rawAndIdentifierInterpolations() {
        let direction = "DESC"
        let query = #sql("SELECT \(identifier: "we\"ird") FROM t ORDER BY 1 \(raw: direction)", as: Int.self)
        #expect(query.sql == #"SELECT "we""ird" FROM t ORDER BY 1 DESC"#)
        #expect(query.bindings.isEmpty)
    }

    @Test(arguments: ["') OR 1=1 --", "'; DROP TABLE note; --", "\"quoted\" and 'single'", "nul\u{0}inside", "🦆🏳️‍🌈 e\u{301}", ""])
    func hostileValuesAreBoundAndReadBackVerbatim(_ hostile: String) throws {
        let connection = try Self.database()
        let id = UUID()
        try #sql("INSERT INTO \(Note.self) (id, title, body, updatedAt) VALUES (\(id), \(hostile), \(hostile), \(Date(timeIntervalSince1970: 5)))")
            .execute(connection)
        let titles = try #sql("SELECT \(Note.columns.title) FROM \(Note.self) WHERE \(Note.columns.body) = \(hostile)", as: String.self)
            .fetchAll(connection)
        #expect(titles == [hostile])
        #expect(try #sql("SELECT count(*) FROM note", as: Int.self).fetchOne(connection) == 1)
        #expect(try connection.fetchValue("SELECT count(*) FROM sqlite_schema") == .integer(2))  // the table and its key index
    }

    @Test func fetchesTablesAndOptionalValues() throws {
        let connection = try Self.database()
        let note = Note(id: UUID(), title: "a", body: "b", updatedAt: Date(timeIntervalSince1970: 3))
        try MacroTestSupport.insert(Note.self, values: MacroTestSupport.encoded(note), into: connection)
        #expect(try #sql("SELECT \(Note.columns) FROM \(Note.self)", as: Note.self).fetchAll(connection) == [note])
        #expect(try #sql("SELECT NULL", as: String?.self).fetchOne(connection) == .some(nil))
        #expect(try #sql("SELECT title FROM note WHERE 0", as: String.self).fetchOne(connection) == nil)
    }

    @Test func multipleStatementsWithoutBindings() throws {
        let connection = try Connection(path: ":memory:")
        try #sql("CREATE TABLE a (x); INSERT INTO a VALUES (1); INSERT INTO a VALUES (2)").execute(connection)
        #expect(try #sql("SELECT sum(x) FROM a", as: Int.self).fetchOne(connection) == 3)
    }

    @Test func strayPlaceholderInRawTextIsRefused() throws {
        let connection = try Self.database()
        let raw = "?"
        #expect(throws: BoutiqueError.invalidArgument("the SQL has 2 parameters but 1 values are bound: SELECT ? + ?")) {
            try #sql("SELECT \(1) + \(raw: raw)", as: Int.self).fetchOne(connection)
        }
    }

    @Test func sqlErrorsAreBoutiqueErrors() throws {
        let connection = try Self.database()
        #expect {
            try #sql("SELECT nothing FROM note WHERE id = \(1)", as: Int.self).fetchAll(connection)
        } throws: { error in
            guard case .sql(let code, let message) = error as? BoutiqueError else { return false }
            return code.primary == .error && message.text.contains("nothing")
        }
    }

    @Test func statementIsResetAfterFetchOne() throws {
        let connection = try Self.database()
        for index in 0..<3 {
            try #sql("INSERT INTO note VALUES (\(UUID()), \("t\(index)"), '', 0)").execute(connection)
        }
        #expect(try #sql("SELECT title FROM note ORDER BY title", as: String.self).fetchOne(connection) == "t0")
        // A statement left on a row would keep a read open and block this write on a shared cache; here it
        // shows as the same first row again.
        #expect(try #sql("SELECT title FROM note ORDER BY title", as: String.self).fetchOne(connection) == "t0")
        try #sql("DELETE FROM note").execute(connection)
        #expect(try #sql("SELECT count(*) FROM note", as: Int.self).fetchOne(connection) == 0)
    }

    @Test func queryIsAnExpression() {
        let inner = #sql("lower(\(Note.columns.title)) = \("x")", as: Bool.self)
        let outer = #sql("SELECT * FROM \(Note.self) WHERE \(inner) AND \(Note.columns.body) <> \("y")")
        #expect(outer.sql == #"SELECT * FROM "note" WHERE lower("note"."title") = ? AND "note"."body" <> ?"#)
        #expect(outer.bindings == [.text("x"), .text("y")])
        let expression: some QueryExpression<Bool> = inner
        #expect(expression.queryFragment == inner.queryFragment)
    }

    @Test func multiLineAndRawStringLiterals() {
        let id = 7
        let query = #sql(
            """
            SELECT 'a''b', "col"
            FROM t -- a comment with ' and (
            WHERE id = \(id)
            """, as: Int.self)
        #expect(query.sql == "SELECT 'a''b', \"col\"\nFROM t -- a comment with ' and (\nWHERE id = ?")
        let rawString = #sql(#"SELECT "x" WHERE a = \#(id)"#)
        #expect(rawString.sql == #"SELECT "x" WHERE a = ?"#)
    }
}

/// `#sql` without `as:` takes its type from the context, and is `SQLQuery<Void>` without one.
@Suite struct SQLMacroInferenceTests {
    func condition(_ expression: some QueryExpression<Bool>) -> QueryFragment { expression.queryFragment }

    @Test func typeFromContext() {
        let fragment = condition(#sql("\(MacroModels.Note.columns.title) GLOB \("a*")"))
        #expect(fragment.sql == #""note"."title" GLOB ?"#)
        let count: SQLQuery<Int> = #sql("SELECT count(*) FROM note")
        #expect(count.sql == "SELECT count(*) FROM note")
        let statement = #sql("DELETE FROM note")
        #expect(type(of: statement) == SQLQuery<Void>.self)
    }
}
