import BoutiqueQueries
import BoutiqueSQLite
import Foundation
import Testing

/// Values written into SQL text as literals, for triggers and views, which cannot take parameters:
/// each literal must read back as exactly the bound value, and no value can change the statement.
@Suite("Inlined fragments")
struct InlinedFragmentTests {
    @Test func writesEachKindOfValueAsTheLiteralThatReadsBackAsIt() throws {
        let fragment = QueryFragment(
            "SELECT ?, ?, ?, ?, ?, ?, ?",
            bindings: [.null, .integer(42), .integer(-7), .real(1.5), .real(-0.25), .text("it's"), .blob([0x00, 0xCA, 0xFE])])
        let inlined = fragment.inlined()
        #expect(inlined.sql == "SELECT NULL, 42, (-7), 1.5, (-0.25), 'it''s', X'00CAFE'")
        #expect(inlined.bindings.isEmpty)
        let db = try Connection(path: ":memory:")
        #expect(try db.fetchRows(inlined.sql).rows == [[.null, .integer(42), .integer(-7), .real(1.5), .real(-0.25), .text("it's"), .blob([0x00, 0xCA, 0xFE])]])
    }

    @Test func keepsExtremeNumbersExact() throws {
        let values: [DatabaseValue] = [
            .integer(.min), .integer(.max), .real(.pi), .real(1e-300), .real(-1e300), .real(.infinity), .real(-.infinity),
            .real(0.1 + 0.2),
        ]
        let fragment = QueryFragment("SELECT " + values.map { _ in "?" }.joined(separator: ", "), bindings: values)
        let db = try Connection(path: ":memory:")
        #expect(try db.fetchRows(fragment.inlined().sql).rows == [values])
    }

    @Test func hostileTextReadsBackAsTextAndChangesNothing() throws {
        let db = try Connection(path: ":memory:")
        try db.execute("CREATE TABLE victim (x); INSERT INTO victim VALUES (1)")
        for text in HostileStrings.pool + ["'); DROP TABLE victim; --", "?", "'?'", "x'00'", "*/ DROP TABLE victim /*"] {
            let inlined = QueryFragment("SELECT ? AS value", bindings: [.text(text)]).inlined()
            #expect(inlined.bindings.isEmpty)
            #expect(try db.fetchRows(inlined.sql).rows == [[.text(text)]], "\(text.debugDescription) → \(inlined.sql)")
        }
        #expect(try db.fetchValue("SELECT count(*) FROM victim") == .integer(1))
    }

    @Test func leavesQuestionMarksInsideStringsIdentifiersAndCommentsAlone() throws {
        let fragment = QueryFragment(
            #"SELECT '?' AS "a?", ? /* ? */, [b?], `c?`, ? -- ?"# + "\n",
            bindings: [.text("one"), .text("two")])
        let inlined = fragment.inlined()
        #expect(inlined.sql == #"SELECT '?' AS "a?", 'one' /* ? */, [b?], `c?`, 'two' -- ?"# + "\n")
        #expect(inlined.bindings.isEmpty)
    }

    @Test func aNegativeNumberAfterAMinusDoesNotBecomeAComment() throws {
        let inlined = QueryFragment("SELECT 1-? AS value, 2", bindings: [.integer(-5)]).inlined()
        #expect(inlined.sql == "SELECT 1-(-5) AS value, 2")
        let db = try Connection(path: ":memory:")
        #expect(try db.fetchRows(inlined.sql).rows == [[.integer(6), .integer(2)]])
    }

    @Test func aLiteralDoesNotRunIntoTheTokenBesideIt() throws {
        let inlined = QueryFragment("SELECT 'a'?, ?'b', 1 + ?.5", bindings: [.text("x"), .text("y"), .integer(2)]).inlined()
        #expect(inlined.sql == "SELECT 'a' 'x', 'y' 'b', 1 + 2 .5")
        // Two string literals side by side are a syntax error, never one string made of both.
        let db = try Connection(path: ":memory:")
        #expect(throws: SQLiteError.self) { try db.fetchRows(inlined.sql) }
    }

    @Test func textWithANulCharacterKeepsIt() throws {
        let inlined = QueryFragment("SELECT ?", bindings: [.text("a\u{0}b")]).inlined()
        let db = try Connection(path: ":memory:")
        #expect(try db.fetchRows(inlined.sql).rows == [[.text("a\u{0}b")]])
    }

    @Test func moreValuesThanPlaceholdersStayBoundAndFewerLeaveThePlaceholder() throws {
        let extra = QueryFragment("SELECT ?", bindings: [.integer(1), .integer(2)]).inlined()
        #expect(extra.sql == "SELECT 1")
        #expect(extra.bindings == [.integer(2)])
        let missing = QueryFragment("SELECT ?, ?", bindings: [.integer(1)]).inlined()
        #expect(missing.sql == "SELECT 1, ?")
        #expect(missing.bindings.isEmpty)
        // Numbered and named parameters are not positional: they are left for SQLite to refuse.
        let named = QueryFragment("SELECT ?1, :x, ?", bindings: [.integer(3)]).inlined()
        #expect(named.sql == "SELECT ?1, :x, 3")
    }

    @Test func aTriggerOrViewWithALeftoverPlaceholderIsRefusedNotBoundShifted() throws {
        let db = try Connection(path: ":memory:")
        try db.execute("CREATE TABLE t (x)")
        let view = QueryFragment("CREATE TEMPORARY VIEW v AS SELECT ?, ?", bindings: [.integer(1)]).inlined()
        #expect(throws: SQLiteError.self) { try db.execute(view.sql) }
    }
}
