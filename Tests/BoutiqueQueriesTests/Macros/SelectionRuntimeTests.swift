import BoutiqueQueries
import BoutiqueSQLite
import Foundation
import Testing

/// `@Selection` types: their `Columns` expression and decoding.
@Suite struct SelectionRuntimeTests {
    typealias Note = MacroModels.Note
    typealias NoteSummary = MacroModels.NoteSummary

    @Test func columnsListTheExpressionsInOrder() {
        let columns = NoteSummary.Columns(title: Note.columns.title, tagCount: #sql("length(\(Note.columns.body)) + \(1)", as: Int.self))
        #expect(columns.queryFragment.sql == #""note"."title", length("note"."body") + ?"#)
        #expect(columns.queryFragment.bindings == [.integer(1)])
    }

    @Test func decodesFieldsInOrder() throws {
        let connection = try Connection(path: ":memory:")
        try connection.execute(TableMacroRuntimeTests.migrations[0])
        try connection.execute("INSERT INTO note VALUES ('0f8fad5b-d9cb-469f-a165-70867728950e', 'abc', 'hello', 0)")
        let columns = NoteSummary.Columns(title: Note.columns.title, tagCount: #sql("length(\(Note.columns.body))", as: Int.self))
        let summaries = try #sql("SELECT \(columns) FROM \(Note.self)", as: NoteSummary.self).fetchAll(connection)
        #expect(summaries == [NoteSummary(title: "abc", tagCount: 5)])
        #expect(NoteSummary.sqlType == .any)
        #expect(NoteSummary.encode(NoteSummary(title: "", tagCount: 0)) == .null)
    }
}
