import Testing

/// What `@Table` reports, where, and the fix-its it offers.
@Suite struct TableDiagnosticTests {
    /// `@Table` on a class: fix-it turns it into a struct.
    @Test func onAClass() {
        assertExpansion(
            """
            @Table
            class Note {
                let id: Int
            }
            """,
            expandedSource: """
            class Note {
                let id: Int
            }
            """,
            diagnostics: [
                ExpectedDiagnostic(message: "@Table can only be applied to a struct", line: 1, column: 1, fixIts: ["replace 'class' with 'struct'"]),
            ],
            fixedSource: """
            @Table
            struct Note {
                let id: Int
            }
            """
        )
    }

    /// `@Table` on an enum: no fix-it can help.
    @Test func onAnEnum() {
        assertExpansion(
            """
            @Table
            enum Note {}
            """,
            expandedSource: """
            enum Note {}
            """,
            diagnostics: [
                ExpectedDiagnostic(message: "@Table can only be applied to a struct", line: 1, column: 1),
            ]
        )
    }

    /// Generic models cannot have static stored columns.
    @Test func onAGenericStruct() {
        assertExpansion(
            """
            @Table
            struct Pair<T> {
                let id: Int
            }
            """,
            expandedSource: """
            struct Pair<T> {
                let id: Int
            }
            """,
            diagnostics: [
                ExpectedDiagnostic(message: "@Table does not support generic types", line: 2, column: 12),
            ]
        )
    }

    /// The second key is refused, with a fix-it that drops its `primaryKey:`.
    @Test func twoPrimaryKeys() {
        assertExpansion(
            """
            @Table
            struct Note {
                @Column(primaryKey: true) let id: Int
                @Column("code", primaryKey: true) let code: String
            }
            """,
            expandedSource: """
            struct Note {
                let id: Int
                let code: String
            }
            """,
            diagnostics: [
                ExpectedDiagnostic(message: "'code' cannot be a second primary key: 'id' is already the primary key", line: 4, column: 5, fixIts: ["remove 'primaryKey:'"]),
            ],
            fixedSource: """
            @Table
            struct Note {
                @Column(primaryKey: true) let id: Int
                @Column("code") let code: String
            }
            """
        )
    }

    /// Only a table with a primary key has a Draft, which is where `lazyInitializable:` acts.
    @Test func lazyInitializableWithoutPrimaryKey() {
        assertExpansion(
            """
            @Table
            struct Location {
                @Column(lazyInitializable: true) var latitude: Double
                var name: String
            }
            """,
            expandedSource: """
            struct Location {
                var latitude: Double
                var name: String
            }
            """,
            diagnostics: [
                ExpectedDiagnostic(message: "'lazyInitializable:' makes 'latitude' optional in the table's Draft, and only a table with a primary key has a Draft", line: 3, column: 5),
            ]
        )
    }

    /// A type that only the compiler knows needs an annotation; literal ones do not.
    @Test func missingTypeAnnotation() {
        assertExpansion(
            """
            @Table
            struct Note {
                let id: Int
                var body = makeBody()
                var count = 0
                var createdAt = Date()
            }
            """,
            expandedSource: """
            struct Note {
                let id: Int
                var body = makeBody()
                var count = 0
                var createdAt = Date()
            }
            """,
            diagnostics: [
                ExpectedDiagnostic(message: "add a type annotation to 'body': @Table reads each column's type from its declaration", line: 4, column: 9),
            ]
        )
    }

    /// A `let` with a value cannot be assigned by the decoder: fix-its make it a `var` or `@Ephemeral`.
    @Test func letWithInitialValue() {
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
                ExpectedDiagnostic(message: "'kind' is a 'let' with an initial value, so it cannot be read from a row; make it a 'var', or mark it @Ephemeral if it is not a column", line: 4, column: 5, fixIts: ["replace 'let' with 'var'", "mark it @Ephemeral"]),
            ],
            fixedSource: """
            @Table
            struct Note {
                let id: Int
                var kind = "note"
            }
            """
        )
    }

    /// One column per property.
    @Test func tuplePattern() {
        assertExpansion(
            """
            @Table
            struct Note {
                let id: Int
                let (a, b): (Int, Int)
            }
            """,
            expandedSource: """
            struct Note {
                let id: Int
                let (a, b): (Int, Int)
            }
            """,
            diagnostics: [
                ExpectedDiagnostic(message: "@Table reads one column per property; declare each separately", line: 4, column: 9),
            ]
        )
    }

    /// SQL names compare without case.
    @Test func duplicateColumnNames() {
        assertExpansion(
            """
            @Table
            struct Note {
                let id: Int
                var title: String
                @Column("Title") var otherTitle: String
            }
            """,
            expandedSource: """
            struct Note {
                let id: Int
                var title: String
                var otherTitle: String
            }
            """,
            diagnostics: [
                ExpectedDiagnostic(message: "two columns are named 'Title'; SQL names are case-insensitive", line: 5, column: 5),
            ]
        )
    }

    /// `primaryKey` and `queryFragment` are members of the generated columns.
    @Test func reservedPropertyName() {
        assertExpansion(
            """
            @Table
            struct Note {
                let id: Int
                var primaryKey: String
            }
            """,
            expandedSource: """
            struct Note {
                let id: Int
                var primaryKey: String
            }
            """,
            diagnostics: [
                ExpectedDiagnostic(message: "a column property cannot be named 'primaryKey', which the table's columns use; rename it and keep the SQL name with @Column(\"primaryKey\")", line: 4, column: 9),
            ]
        )
    }

    /// The name must be a literal, and a table needs columns.
    @Test func noColumnsAndNonLiteralName() {
        assertExpansion(
            """
            @Table(name)
            struct Empty {
                static let x = 1
            }
            """,
            expandedSource: """
            struct Empty {
                static let x = 1
            }
            """,
            diagnostics: [
                ExpectedDiagnostic(message: "the table name must be a non-empty string literal", line: 1, column: 8),
                ExpectedDiagnostic(message: "'Empty' has no stored properties for @Table to read", line: 2, column: 8),
            ]
        )
    }
}
