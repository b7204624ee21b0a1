import BoutiqueQueries
import BoutiqueSQLite
import Foundation
import Testing

/// Macro-generated models driving the query builder: the product description's calls, drafts,
/// selections and `#sql` inside closures.
@Suite struct MacroQueryBuilderTests {
    typealias Note = MacroModels.Note

    static func database() throws -> Connection {
        let connection = try Connection(path: ":memory:")
        for migration in TableMacroRuntimeTests.migrations.prefix(1) { try connection.execute(migration) }
        return connection
    }

    @Test func productDescriptionCalls() throws {
        let connection = try Self.database()
        let older = Note(id: UUID(), title: "Older", body: "", updatedAt: Date(timeIntervalSince1970: 10))
        let newer = Note(id: UUID(), title: "New Note", body: "", updatedAt: Date(timeIntervalSince1970: 20))
        try Note.insert { older }.execute(connection)
        try Note.insert { newer }.execute(connection)
        let notes = try Note.all.order { $0.updatedAt.desc() }.fetchAll(connection)
        #expect(notes == [newer, older])
    }

    @Test func selectionColumnsInASelect() throws {
        let connection = try Self.database()
        try Note.insert { Note(id: UUID(), title: "Only", body: "x", updatedAt: Date(timeIntervalSince1970: 1)) }
            .execute(connection)
        let summaries = try Note.all
            .select { MacroModels.NoteSummary.Columns(title: $0.title, tagCount: $0.id.count()) }
            .fetchAll(connection)
        #expect(summaries == [MacroModels.NoteSummary(title: "Only", tagCount: 1)])
    }

    @Test func sqlInsideAWhereClosure() throws {
        let connection = try Self.database()
        for title in ["Groceries", "Garden", "Work"] {
            try Note.insert { Note(id: UUID(), title: title, body: "", updatedAt: Date(timeIntervalSince1970: 0)) }
                .execute(connection)
        }
        let titles = try Note.where { #sql("\($0.title) LIKE \("G%")") }
            .order { $0.title.asc() }
            .fetchAll(connection)
            .map(\.title)
        #expect(titles == ["Garden", "Groceries"])
    }

    @Test func draftInsertLetsSQLiteAssignTheKey() throws {
        let connection = try Connection(path: ":memory:")
        try MacroModels.Tag.createTable().execute(connection)
        try MacroModels.Tag.insert {
            MacroModels.Tag.Draft(name: "a")
            MacroModels.Tag.Draft(name: "b", weight: 2)
        }.execute(connection)
        let tags = try MacroModels.Tag.all.order { $0.id.asc() }.fetchAll(connection)
        #expect(tags.map(\.id) == [1, 2])
        #expect(tags.map(\.weight) == [-1.5, 2])
    }

    @Test func draftWithoutAUUIDKeyGetsAFreshOne() throws {
        let connection = try Self.database()
        try Note.insert {
            Note.Draft(title: "A", body: "")
            Note.Draft(title: "B", body: "")
        }.execute(connection)
        let notes = try Note.all.order { $0.title.asc() }.fetchAll(connection)
        #expect(notes.map(\.title) == ["A", "B"])
        #expect(Set(notes.map(\.id)).count == 2)
        let id = UUID()
        #expect(MacroTestSupport.encoded(draft: Note.Draft(id: id, title: "", body: "")).first == .text(id.uuidString.lowercased()))
    }

    @Test func publicModelRoundTrips() throws {
        let connection = try Connection(path: ":memory:")
        try MacroModels.PublicItem.createTable().execute(connection)
        try MacroModels.PublicItem.insert { MacroModels.PublicItem.Draft(name: "a", tags: ["x", "y"]) }.execute(connection)
        #expect(try MacroModels.PublicItem.all.fetchAll(connection) == [MacroModels.PublicItem(id: 1, name: "a", tags: ["x", "y"])])
        #expect(try connection.fetchValue("SELECT tags FROM publicItem") == .text(#"["x","y"]"#))
    }

    @Test func topLevelPublicModel() throws {
        let connection = try Connection(path: ":memory:")
        try MacroTestPublicRow.createTable().execute(connection)
        try MacroTestPublicRow.insert { MacroTestPublicRow.Draft(label: nil) }.execute(connection)
        #expect(try MacroTestPublicRow.all.fetchAll(connection) == [MacroTestPublicRow(id: 1, label: nil)])
        let count = try #sql("SELECT count(*) FROM \(MacroTestPublicRow.self)", as: MacroTestPublicCount.self).fetchOne(connection)
        #expect(count == MacroTestPublicCount(value: 1))
    }

    @Test func generatedColumnsAreReadButNeverWritten() throws {
        let connection = try Connection(path: ":memory:")
        try MacroModels.RichNote.createTable().execute(connection)
        let note = MacroModels.RichNote(
            id: UUID(), title: "MiXed", body: "", createdAt: Date(timeIntervalSince1970: 0),
            updatedAt: Date(timeIntervalSince1970: 0), titleLower: "ignored")
        try MacroModels.RichNote.insert { note }.execute(connection)
        let stored = try MacroModels.RichNote.all.fetchOne(connection)
        #expect(stored?.titleLower == "mixed")
    }
}
