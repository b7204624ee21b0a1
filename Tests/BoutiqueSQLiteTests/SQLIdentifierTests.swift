import Testing

@testable import BoutiqueSQLite

@Suite("SQLIdentifier")
struct SQLIdentifierTests {
    @Test func quotesAndDoublesEmbeddedQuotes() {
        #expect(SQLIdentifier.quote("note") == #""note""#)
        #expect(SQLIdentifier.quote(#"we"ird"#) == #""we""ird""#)
        #expect(SQLIdentifier.quote("") == #""""#)
        #expect(SQLIdentifier.quote("🙂 café") == "\"🙂 café\"")
    }

    /// A quote followed by a combining mark is a single `Character` that is not `"`, but SQLite sees
    /// the quote byte: it is doubled all the same.
    @Test func aQuoteInsideACombinedCharacterIsDoubled() {
        let name = "a\"\u{301}b"
        #expect(SQLIdentifier.quote(name) == "\"a\"\"\u{301}b\"")
    }

    /// Hostile names make tables with exactly those names and nothing else happens.
    @Test func hostileNamesRoundTripThroughSQLite() throws {
        let connection = try Connection.inMemory()
        try connection.execute("CREATE TABLE victim(x)")
        let names = ["a\"\u{301}; DROP TABLE victim; --", #"x"); DROP TABLE victim; --"#, "\"", "😀\"\"😀"]
        for name in names {
            try connection.execute("CREATE TABLE \(SQLIdentifier.quote(name)) (\(SQLIdentifier.quote(name + "c")))")
        }
        let tables = try connection.fetchRows("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY rowid").rows
        #expect(tables.map { $0[0] } == [.text("victim")] + names.map { .text($0) })
    }
}
