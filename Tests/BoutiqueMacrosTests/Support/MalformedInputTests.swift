import Testing

/// The macros meet code that does not compile yet while it is being typed: they must report, never crash.
@Suite struct MalformedInputTests {
    @Test(arguments: [
        "@Table struct {",
        "@Table struct N { var : Int }",
        "@Table struct N { var x: }",
        "@Table struct N { @Column( var x: Int }",
        "@Table struct N { @Column(as: ) var x: Int }",
        "@Table struct N { @Column(\"\") var x: Int }",
        "@Table struct N { @Column(generated: nil) var x: Int; let id = }",
        "@Table struct N { let id: Int; var x = #sql(\"'\") }",
        "@Table(\"\") struct N { let id: Int }",
        "@Table(\"a\\(b)\") struct N { let id: Int }",
        "@Table extension N {}",
        "@Table protocol P {}",
        "@Selection struct S { let x }",
        "@BoutiqueTable(strict: true, strict: false) struct S { let id: Int }",
        "@Ephemeral func f() {}",
        "@Ephemeral var x",
        "let q = #sql()",
        "let q = #sql(\"\\(\")",
        "let q = #sql(\"\\(raw: )\")",
        "let q = #sql(\"\"\"\n\\(a)'\n\"\"\")",
        "let q = #sql(#\"'\\#(a)'\"#, as: )",
        "@DatabaseFunction func f(",
        "@DatabaseFunction func (_ x: Int) -> Int { x }",
        "@DatabaseFunction(as: ) func f() -> Int { 1 }",
        "@DatabaseFunction(as: ((Int) -> ).self) func f(_ x: Int) -> Int { x }",
        "@DatabaseFunction(as: (() -> Int).self, \"\") var x: Int {",
        "@DatabaseFunction func f(_ x: some Sequence<>) -> Int { 0 }",
        "@DatabaseFunction func f(_ x: some Sequence<(Int, )>) -> Int { 0 }",
        "@DatabaseFunction var (a, b): (Int, Int) { (1, 2) }",
        "@DatabaseFunction subscript(i: Int) -> Int { i }",
    ])
    func malformedSourceIsReportedNotCrashed(_ source: String) {
        // Reaching the end is the test: each macro either expands or emits diagnostics.
        _ = MacroExpansionResult(expanding: source, macros: boutiqueMacros)
    }

    @Test func emptyColumnNameIsRefused() {
        let result = MacroExpansionResult(
            expanding: "struct N { @Column(\"\") var x: Int }", macros: boutiqueMacros)
        #expect(result.diagnostics.map(\.message) == ["the column name must not be empty"])
    }

    @Test func emptyTableNameIsRefused() {
        let result = MacroExpansionResult(expanding: "@Table(\"\") struct N { let id: Int }", macros: boutiqueMacros)
        #expect(result.diagnostics.map(\.message) == ["the table name must be a non-empty string literal"])
    }

    @Test func letWithInitialValueCanBecomeEphemeral() {
        assertExpansion(
            """
            @Table
            struct Note {
                let id: Int
                let kind = "note"
            }
            """,
            expandedSource: """
            struct Note {
                let id: Int
                let kind = "note"
            }
            """,
            diagnostics: [
                ExpectedDiagnostic(
                    message: "'kind' is a 'let' with an initial value, so it cannot be read from a row; make it a 'var', or mark it @Ephemeral if it is not a column",
                    line: 4, column: 5, fixIts: ["replace 'let' with 'var'", "mark it @Ephemeral"])
            ],
            fixedSource: """
            @Table
            struct Note {
                let id: Int
                @Ephemeral let kind = "note"
            }
            """,
            applyingFixIt: 1
        )
    }
}
