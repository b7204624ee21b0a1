@testable import BoutiqueMacros
import SwiftParser
import SwiftSyntax
import Testing

/// The helpers the macros share: type inference from literals, literal defaults, escapes, names.
@Suite struct MacroSupportTests {
    @Test(arguments: [
        ("false", "Bool"), ("0", "Int"), ("-1", "Int"), ("0.5", "Double"), ("-2.5", "Double"), ("\"\"", "String"),
        ("Date()", "Date"), ("UUID()", "UUID"), ("Date(timeIntervalSince1970: 0)", "Date"),
    ])
    func typeOfObviousInitializers(_ source: String, _ type: String) {
        #expect(TypeText.inferred(from: ExprSyntax(stringLiteral: source)) == type)
    }

    @Test(arguments: ["makeBody()", "[]", "nil", ".now", "Date.now", "x + 1", "Array<Int>()", "Foo { }"])
    func typeOfOtherInitializersIsUnknown(_ source: String) {
        #expect(TypeText.inferred(from: ExprSyntax(stringLiteral: source)) == nil)
    }

    @Test(arguments: [
        ("true", ".integer(1)"), ("false", ".integer(0)"), ("0x1F", ".integer(0x1F)"), ("-3", ".integer(-3)"),
        ("1.5e3", ".real(1.5e3)"), ("-0.25", ".real(-0.25)"), ("nil", ".null"),
        (#""it's \"q\"""#, #".text("it's \"q\"")"#), (##"#"raw \n"#"##, #".text("raw \\n")"#),
    ])
    func literalDefaults(_ source: String, _ value: String) {
        #expect(LiteralDefault.databaseValue(for: ExprSyntax(stringLiteral: source)) == value)
    }

    @Test(arguments: ["Date()", "\"a\\(b)\"", "[1]", "-x"])
    func nonLiteralsHaveNoDefault(_ source: String) {
        #expect(LiteralDefault.databaseValue(for: ExprSyntax(stringLiteral: source)) == nil)
    }

    @Test func optionalTypes() {
        for optional in ["Int?", "Int!", "Optional<Int>", "Swift.Optional<Int>"] {
            #expect(TypeText.isOptional(TypeSyntax(stringLiteral: optional)), "\(optional)")
        }
        for plain in ["Int", "[Int?]", "Optional", "Result<Int?, Error>"] {
            #expect(!TypeText.isOptional(TypeSyntax(stringLiteral: plain)), "\(plain)")
        }
        #expect(TableExpansion.optional("any P") == "(any P)?")
        #expect(TableExpansion.optional("[String: Int]") == "[String: Int]?")
    }

    @Test func defaultTableNames() {
        #expect(TableMacro.defaultTableName(for: "Note") == "note")
        #expect(TableMacro.defaultTableName(for: "URLRecord") == "uRLRecord")
        #expect(TableMacro.defaultTableName(for: "`Type`") == "type")
    }

    @Test func swiftEscapesInSQLSegments() {
        #expect(SQLPiece.unescaped(#"a\"b\\c\n\t\u{1F986}"#, delimiter: "") == "a\"b\\c\n\t🦆")
        #expect(SQLPiece.unescaped(#"a\nb\#nc"#, delimiter: "#") == "a\\nb\nc")
        #expect(SQLPiece.unescaped("line \\\n    next", delimiter: "") == "line next")
    }

    @Test func swiftStringLiterals() {
        #expect(StringLiteral.quoted("a\"b\\c\n\u{0}") == #""a\"b\\c\n\u{0}""#)
    }
}
