import Testing

/// What `#sql` expands to and the SQL mistakes it reports when compiling.
@Suite struct SQLMacroTests {
    /// Without `as:` the literal itself, typed by the result of the macro (`SQLQuery<Void>` or what the context asks for); with it `SQLQuery<Output>`.
    @Test func expandsToATypedQuery() {
        assertExpansion(
            #"""
            let a = #sql("SELECT \(Note.columns) FROM \(Note.self) WHERE \(Note.columns.title) = \(title)")
            let b = #sql("SELECT count(*) FROM note", as: Int.self)
            """#,
            expandedSource: #"""
            let a = ("SELECT \(Note.columns) FROM \(Note.self) WHERE \(Note.columns.title) = \(title)")
            let b = BoutiqueQueries.SQLQuery("SELECT count(*) FROM note", as: Int.self)
            """#
        )
    }

    /// Quotes, doubled quotes, comments, brackets and raw text that is well-formed pass.
    @Test func validSQLIsQuiet() {
        assertExpansion(
            ##"""
            let a = #sql("SELECT ')' , 'it''s', \"a\"\"b\", [c d], `e` -- ( ' \n FROM t WHERE x = \(x) /* ( */")
            let b = #sql("SELECT \(raw: "(") 1 )")
            let c = #sql("SELECT \(raw: dynamic) )")
            let d = #sql(#"SELECT "x" WHERE a = \#(id)"#)
            let e = #sql("""
                SELECT *
                FROM t -- it's fine
                WHERE a = \(a)
                """)
            """##,
            expandedSource: ##"""
            let a = ("SELECT ')' , 'it''s', \"a\"\"b\", [c d], `e` -- ( ' \n FROM t WHERE x = \(x) /* ( */")
            let b = ("SELECT \(raw: "(") 1 )")
            let c = ("SELECT \(raw: dynamic) )")
            let d = (#"SELECT "x" WHERE a = \#(id)"#)
            let e = ("""
                SELECT *
                FROM t -- it's fine
                WHERE a = \(a)
                """)
            """##
        )
    }

    /// `'\(x)'` would be the text '?': fix-it removes the quotes.
    @Test func interpolationInsideAString() {
        assertExpansion(
            #"""
            let a = #sql("SELECT * FROM t WHERE a = '\(x)' AND b = \(y)")
            """#,
            expandedSource: #"""
            let a = ("SELECT * FROM t WHERE a = '\(x)' AND b = \(y)")
            """#,
            diagnostics: [
                ExpectedDiagnostic(message: "an interpolated value is bound as a parameter and cannot appear inside a SQL string: '\\(…)' would be the text '?'", line: 1, column: 42, fixIts: ["remove the quotes around the interpolation"]),
            ],
            fixedSource: #"""
            let a = #sql("SELECT * FROM t WHERE a = \(x) AND b = \(y)")
            """#
        )
    }

    /// Inside a longer string there is no quote to remove.
    @Test func interpolationInsideAStringWithText() {
        assertExpansion(
            #"""
            let a = #sql("SELECT * FROM t WHERE a LIKE '%\(x)%'")
            """#,
            expandedSource: #"""
            let a = ("SELECT * FROM t WHERE a LIKE '%\(x)%'")
            """#,
            diagnostics: [
                ExpectedDiagnostic(message: "an interpolated value is bound as a parameter and cannot appear inside a SQL string: '\\(…)' would be the text '?'", line: 1, column: 46),
            ]
        )
    }

    /// Quoted identifiers cannot hold parameters.
    @Test func interpolationInsideAnIdentifier() {
        assertExpansion(
            #"""
            let a = #sql("SELECT \"\(x)\" FROM t")
            let b = #sql("SELECT [abc \(x)]")
            """#,
            expandedSource: #"""
            let a = ("SELECT \"\(x)\" FROM t")
            let b = ("SELECT [abc \(x)]")
            """#,
            diagnostics: [
                ExpectedDiagnostic(message: "an interpolation cannot appear inside a quoted SQL identifier; interpolate the table or column itself, as \\(Note.self) or \\(Note.columns.title)", line: 1, column: 24),
                ExpectedDiagnostic(message: "an interpolation cannot appear inside a quoted SQL identifier; interpolate the table or column itself, as \\(Note.self) or \\(Note.columns.title)", line: 2, column: 27),
            ]
        )
    }

    /// A value in a comment binds nothing.
    @Test func interpolationInsideAComment() {
        assertExpansion(
            #"""
            let a = #sql("SELECT 1 -- \(y)")
            let b = #sql("SELECT 1 /* \(y) */")
            """#,
            expandedSource: #"""
            let a = ("SELECT 1 -- \(y)")
            let b = ("SELECT 1 /* \(y) */")
            """#,
            diagnostics: [
                ExpectedDiagnostic(message: "an interpolation inside a SQL comment would bind a value that no parameter uses", line: 1, column: 27),
                ExpectedDiagnostic(message: "an interpolation inside a SQL comment would bind a value that no parameter uses", line: 2, column: 27),
            ]
        )
    }

    /// Unclosed strings and identifiers.
    @Test func unterminatedQuotes() {
        assertExpansion(
            #"""
            let a = #sql("SELECT 'abc")
            let b = #sql("SELECT \"abc")
            """#,
            expandedSource: #"""
            let a = ("SELECT 'abc")
            let b = ("SELECT \"abc")
            """#,
            diagnostics: [
                ExpectedDiagnostic(message: "unterminated SQL string: a ' is never closed", line: 1, column: 15),
                ExpectedDiagnostic(message: "unterminated quoted identifier in SQL: a \" is never closed", line: 2, column: 15),
            ]
        )
    }

    /// Both directions.
    @Test func unbalancedParentheses() {
        assertExpansion(
            """
            let a = #sql("SELECT (1 + 2")
            let b = #sql("SELECT 1)")
            """,
            expandedSource: """
            let a = ("SELECT (1 + 2")
            let b = ("SELECT 1)")
            """,
            diagnostics: [
                ExpectedDiagnostic(message: "unbalanced parentheses in SQL: a '(' is never closed", line: 1, column: 15),
                ExpectedDiagnostic(message: "unbalanced parentheses in SQL: ')' has no matching '('", line: 2, column: 15),
            ]
        )
    }

    /// The "Safe SQL strings" article's linting examples: a `length(` left open (the first interpolation's
    /// `)` ends the interpolation, not the call), a count placed inside a SQL string, and the
    /// concatenation that fixes it.
    @Test func theSafeSQLStringsArticlesLintingExamples() {
        assertExpansion(
            #"""
            let a = #sql("NOT (length(\($0.notes) > length(\($1.title)))")
            let b = #sql("'\($0.id.count()) rows'", as: String.self)
            let c = #sql("\($0.id.count()) || ' rows'", as: String.self)
            """#,
            expandedSource: #"""
            let a = ("NOT (length(\($0.notes) > length(\($1.title)))")
            let b = BoutiqueQueries.SQLQuery("'\($0.id.count()) rows'", as: String.self)
            let c = BoutiqueQueries.SQLQuery("\($0.id.count()) || ' rows'", as: String.self)
            """#,
            diagnostics: [
                ExpectedDiagnostic(message: "unbalanced parentheses in SQL: a '(' is never closed", line: 1, column: 15),
                ExpectedDiagnostic(message: "an interpolated value is bound as a parameter and cannot appear inside a SQL string: '\\(…)' would be the text '?'", line: 2, column: 16),
            ]
        )
    }

    /// A `?` would never be bound.
    @Test func barePlaceholder() {
        assertExpansion(
            """
            let a = #sql("SELECT * FROM t WHERE id = ?")
            """,
            expandedSource: """
            let a = ("SELECT * FROM t WHERE id = ?")
            """,
            diagnostics: [
                ExpectedDiagnostic(message: "'?' in #sql is a parameter that is never bound; interpolate the value instead, as \\(value)", line: 1, column: 15),
            ]
        )
    }

    /// The text must be visible to the macro.
    @Test func notALiteral() {
        assertExpansion(
            """
            let a = #sql(query)
            """,
            expandedSource: """
            let a = (query)
            """,
            diagnostics: [
                ExpectedDiagnostic(message: "#sql takes a string literal, so that its SQL can be checked when compiling", line: 1, column: 14),
            ]
        )
    }
}
