import Testing

/// What `@Column` and `@Ephemeral` check where they are attached.
@Suite struct ColumnDiagnosticTests {
    /// `@Column` is a marker: it generates nothing.
    @Test func columnExpandsToNothing() {
        assertExpansion(
            """
            struct S {
                @Column("a", as: Int.self, primaryKey: true) var a: Int
                @Column(generated: .stored("a + 1")) var b: Int
            }
            """,
            expandedSource: """
            struct S {
                var a: Int
                var b: Int
            }
            """
        )
    }

    /// Computed properties are never columns: fix-it removes the attribute.
    @Test func columnOnComputedProperty() {
        assertExpansion(
            """
            struct S {
                @Column var computed: Int { 1 }
            }
            """,
            expandedSource: """
            struct S {
                var computed: Int { 1 }
            }
            """,
            diagnostics: [
                ExpectedDiagnostic(message: "@Column applies to a stored property; computed properties are never columns", line: 2, column: 5, fixIts: ["remove '@Column'"]),
            ],
            fixedSource: """
            struct S {
                var computed: Int { 1 }
            }
            """
        )
    }

    /// Static properties are never columns.
    @Test func columnOnStaticProperty() {
        assertExpansion(
            """
            struct S {
                @Column static var shared = 1
            }
            """,
            expandedSource: """
            struct S {
                static var shared = 1
            }
            """,
            diagnostics: [
                ExpectedDiagnostic(message: "@Column applies to instance properties; static and lazy properties are never columns", line: 2, column: 5, fixIts: ["remove '@Column'"]),
            ],
            fixedSource: """
            struct S {
                static var shared = 1
            }
            """
        )
    }

    /// A property is a column or not.
    @Test func columnAndEphemeral() {
        assertExpansion(
            """
            struct S {
                @Column @Ephemeral var both = 1
            }
            """,
            expandedSource: """
            struct S {
                var both = 1
            }
            """,
            diagnostics: [
                ExpectedDiagnostic(message: "a property cannot be both @Column and @Ephemeral: @Ephemeral properties are not columns", line: 2, column: 5, fixIts: ["remove '@Column'"]),
            ],
            fixedSource: """
            struct S {
                @Ephemeral var both = 1
            }
            """
        )
    }

    /// The plugin reads the arguments as written: they must be literals.
    @Test func columnArgumentsMustBeLiterals() {
        assertExpansion(
            """
            struct S {
                @Column(name, as: Int, primaryKey: yes) var x: Int
            }
            """,
            expandedSource: """
            struct S {
                var x: Int
            }
            """,
            diagnostics: [
                ExpectedDiagnostic(message: "the column name must be a string literal", line: 2, column: 13),
                ExpectedDiagnostic(message: "'as:' takes a type written as 'Type.self'", line: 2, column: 23),
                ExpectedDiagnostic(message: "'primaryKey:' must be 'true' or 'false'", line: 2, column: 40),
            ]
        )
    }

    /// SQLite refuses a generated primary key.
    @Test func generatedPrimaryKey() {
        assertExpansion(
            """
            struct S {
                @Column(primaryKey: true, generated: .stored("1")) var y: Int
            }
            """,
            expandedSource: """
            struct S {
                var y: Int
            }
            """,
            diagnostics: [
                ExpectedDiagnostic(message: "a generated column cannot be the primary key", line: 2, column: 5, fixIts: ["remove 'primaryKey:'"]),
            ],
            fixedSource: """
            struct S {
                @Column(generated: .stored("1")) var y: Int
            }
            """
        )
    }

    /// `@Column` on something that is not a property.
    @Test func columnOnAFunction() {
        assertExpansion(
            """
            struct S {
                @Column func f() {}
            }
            """,
            expandedSource: """
            struct S {
                func f() {}
            }
            """,
            diagnostics: [
                ExpectedDiagnostic(message: "@Column applies to a stored property", line: 2, column: 5),
            ]
        )
    }

    /// Decoding leaves ephemeral properties at their default, so they need one; `var` optionals have `nil`.
    @Test func ephemeralWithoutDefault() {
        assertExpansion(
            """
            struct S {
                @Ephemeral var missing: Int
                @Ephemeral let missingLet: Int?
                @Ephemeral var optional: Int?
                @Ephemeral var fine = 1
            }
            """,
            expandedSource: """
            struct S {
                var missing: Int
                let missingLet: Int?
                var optional: Int?
                var fine = 1
            }
            """,
            diagnostics: [
                ExpectedDiagnostic(message: "@Ephemeral property 'missing' needs a default value: rows do not store it, so decoding leaves it at its default", line: 2, column: 20, fixIts: ["add a default value"]),
                ExpectedDiagnostic(message: "@Ephemeral property 'missingLet' needs a default value: rows do not store it, so decoding leaves it at its default", line: 3, column: 20, fixIts: ["add a default value"]),
            ],
            fixedSource: """
            struct S {
                @Ephemeral var missing: Int = <#default#>
                @Ephemeral let missingLet: Int? = <#default#>
                @Ephemeral var optional: Int?
                @Ephemeral var fine = 1
            }
            """
        )
    }

    /// Only a warning: the attribute does nothing there.
    @Test func ephemeralOnComputedProperty() {
        assertExpansion(
            """
            struct S {
                @Ephemeral var computed: Int { 1 }
            }
            """,
            expandedSource: """
            struct S {
                var computed: Int { 1 }
            }
            """,
            diagnostics: [
                ExpectedDiagnostic(message: "@Ephemeral has no effect here: only stored instance properties are columns", line: 2, column: 5, severity: .warning, fixIts: ["remove '@Ephemeral'"]),
            ],
            fixedSource: """
            struct S {
                var computed: Int { 1 }
            }
            """
        )
    }
}
