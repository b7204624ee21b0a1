import Testing

/// The text `@Selection` and `@BoutiqueTable` expand to, and what they report.
@Suite struct SelectionAndBoutiqueTableTests {
    /// A selection: typed `Columns` and positional decoding, with a field representation.
    @Test func selection() {
        assertExpansion(
            """
            @Selection
            struct NoteSummary {
                let title: String
                let tagCount: Int
                @Column(as: Date.ISO8601Representation.self) var when: Date?
            }
            """,
            expandedSource: """
            struct NoteSummary {
                let title: String
                let tagCount: Int
                var when: Date?
            }

            nonisolated extension NoteSummary: BoutiqueQueries.QuerySelection {
                struct TableColumns: BoutiqueQueries.TableDefinition {
                    typealias Root = NoteSummary
                    var title: BoutiqueQueries.TableColumn<NoteSummary, String> { .init("title") }
                    var tagCount: BoutiqueQueries.TableColumn<NoteSummary, Int> { .init("tagCount") }
                    var when: BoutiqueQueries.TableColumn<NoteSummary, Date.ISO8601Representation?> { .init("when") }
                    static let allColumns: [BoutiqueQueries.ColumnSchema] = makeAllColumns()
                    private static func makeAllColumns() -> [BoutiqueQueries.ColumnSchema] {
                        BoutiqueQueries.ColumnSchema.flattened([
                            BoutiqueQueries.ColumnSchema("title", as: String.self),
                            BoutiqueQueries.ColumnSchema("tagCount", as: Int.self),
                            BoutiqueQueries.ColumnSchema("when", as: Date.ISO8601Representation?.self),
                        ])
                    }
                    init() {}
                }
                struct Columns: BoutiqueQueries.QueryExpression, Sendable {
                    typealias QueryValue = NoteSummary
                    let queryFragment: BoutiqueQueries.QueryFragment
                    init(title: some BoutiqueQueries.QueryExpression<String>, tagCount: some BoutiqueQueries.QueryExpression<Int>, when: some BoutiqueQueries.QueryExpression<Date.ISO8601Representation?> = BoutiqueQueries.SQLExpression<Date.ISO8601Representation?>(bound: nil)) {
                        self.queryFragment = [title.queryFragment, tagCount.queryFragment, when.queryFragment].joined(separator: ", ")
                    }
                }
                static var columns: TableColumns { TableColumns() }
                static var tableName: String { "noteSummary" }
                init(decoder: inout BoutiqueQueries.RowDecoder) throws(BoutiqueQueries.BoutiqueError) {
                    self.title = try decoder.decode(String.self)
                    self.tagCount = try decoder.decode(Int.self)
                    self.when = try decoder.decode(Date.ISO8601Representation?.self)
                }
                func encodeColumns(into encoder: inout BoutiqueQueries.RowEncoder) {
                    encoder.encode(self.title)
                    encoder.encode(self.tagCount)
                    encoder.encode(self.when, as: Date.ISO8601Representation?.self)
                }
            }
            """
        )
    }

    /// On a `@Table` struct (a view's rows, as earlier releases declared them), `@Selection` adds
    /// nothing: `@Table` generates `Columns` for every table, and the struct is no `QuerySelection`.
    @Test func selectionOnATable() {
        assertExpansion(
            """
            @Table @Selection
            struct ReminderWithList {
                @Column(primaryKey: true) let reminderID: Int
                @Column("list_title") var listTitle: String
                @Column(as: Date.ISO8601Representation.self) var due: Date?
            }
            """,
            expandedSource: """
            @Table
            struct ReminderWithList {
                let reminderID: Int
                var listTitle: String
                var due: Date?
            }
            """,
            macros: ["Selection": boutiqueMacros["Selection"]!, "Column": boutiqueMacros["Column"]!]
        )
    }

    /// A public selection has public members.
    @Test func publicSelection() {
        assertExpansion(
            """
            @Selection
            public struct Count: Sendable {
                public let value: Int
            }
            """,
            expandedSource: """
            public struct Count: Sendable {
                public let value: Int
            }

            nonisolated extension Count: BoutiqueQueries.QuerySelection {
                public struct TableColumns: BoutiqueQueries.TableDefinition {
                    public typealias Root = Count
                    public var value: BoutiqueQueries.TableColumn<Count, Int> { .init("value") }
                    public static let allColumns: [BoutiqueQueries.ColumnSchema] = makeAllColumns()
                    private static func makeAllColumns() -> [BoutiqueQueries.ColumnSchema] {
                        BoutiqueQueries.ColumnSchema.flattened([
                            BoutiqueQueries.ColumnSchema("value", as: Int.self),
                        ])
                    }
                    public init() {}
                }
                public struct Columns: BoutiqueQueries.QueryExpression, Sendable {
                    public typealias QueryValue = Count
                    public let queryFragment: BoutiqueQueries.QueryFragment
                    public init(value: some BoutiqueQueries.QueryExpression<Int>) {
                        self.queryFragment = [value.queryFragment].joined(separator: ", ")
                    }
                }
                public static var columns: TableColumns { TableColumns() }
                public static var tableName: String { "count" }
                public init(decoder: inout BoutiqueQueries.RowDecoder) throws(BoutiqueQueries.BoutiqueError) {
                    self.value = try decoder.decode(Int.self)
                }
                public func encodeColumns(into encoder: inout BoutiqueQueries.RowEncoder) {
                    encoder.encode(self.value)
                }
            }
            """
        )
    }

    /// Selections are structs.
    @Test func selectionOnAClass() {
        assertExpansion(
            """
            @Selection
            class Bad {}
            """,
            expandedSource: """
            class Bad {}
            """,
            diagnostics: [
                ExpectedDiagnostic(message: "@Selection can only be applied to a struct", line: 1, column: 1, fixIts: ["replace 'class' with 'struct'"]),
            ],
            fixedSource: """
            @Selection
            struct Bad {}
            """
        )
    }

    /// A selection needs at least one field.
    @Test func selectionWithoutFields() {
        assertExpansion(
            """
            @Selection
            struct Nothing {
                var computed: Int { 1 }
            }
            """,
            expandedSource: """
            struct Nothing {
                var computed: Int { 1 }
            }
            """,
            diagnostics: [
                ExpectedDiagnostic(message: "'Nothing' has no stored properties for @Selection to read", line: 2, column: 8),
            ]
        )
    }

    /// A selection is a table, whose name and column handles name one type: a generic one is refused.
    @Test func genericSelection() {
        assertExpansion(
            """
            @Selection
            struct Pair<T> {
                let first: Int
            }
            """,
            expandedSource: """
            struct Pair<T> {
                let first: Int
            }
            """,
            diagnostics: [
                ExpectedDiagnostic(message: "@Selection does not support generic types", line: 2, column: 12),
            ]
        )
    }

    /// `queryFragment` names the column handles' own SQL, so no field may take it.
    @Test func selectionFieldNamedQueryFragment() {
        assertExpansion(
            """
            @Selection
            struct Piece {
                let queryFragment: String
            }
            """,
            expandedSource: """
            struct Piece {
                let queryFragment: String
            }
            """,
            diagnostics: [
                ExpectedDiagnostic(message: "a column property cannot be named 'queryFragment', which the table's columns use; rename it and keep the SQL name with @Column(\"queryFragment\")", line: 3, column: 9),
            ]
        )
    }

    /// Options become one static property; `@Table` beside it expands on its own.
    @Test func boutiqueTable() {
        assertExpansion(
            """
            @Table @BoutiqueTable(strict: true, withoutRowID: true)
            public struct Note {
                let id: Int
            }
            """,
            expandedSource: """
            public struct Note {
                let id: Int
            }

            nonisolated extension Note: BoutiqueQueries.Table, BoutiqueQueries.PrimaryKeyedTable {
                public struct TableColumns: BoutiqueQueries.PrimaryKeyedTableDefinition {
                    public typealias Root = Note
                    public typealias PrimaryKey = Int
                    public var id: BoutiqueQueries.TableColumn<Note, Int> { .init("id") }
                    public var primaryKey: BoutiqueQueries.TableColumn<Note, Int> { id }
                    public static let allColumns: [BoutiqueQueries.ColumnSchema] = makeAllColumns()
                    private static func makeAllColumns() -> [BoutiqueQueries.ColumnSchema] {
                        BoutiqueQueries.ColumnSchema.flattened([
                            BoutiqueQueries.ColumnSchema("id", as: Int.self, primaryKey: true),
                        ])
                    }
                    public init() {}
                }
                public struct Columns: BoutiqueQueries.QueryExpression, Sendable {
                    public typealias QueryValue = Note
                    public let queryFragment: BoutiqueQueries.QueryFragment
                    public init(id: some BoutiqueQueries.QueryExpression<Int>) {
                        self.queryFragment = [id.queryFragment].joined(separator: ", ")
                    }
                }
                public static var columns: TableColumns { TableColumns() }
                public static var tableName: String { "note" }
                public init(decoder: inout BoutiqueQueries.RowDecoder) throws(BoutiqueQueries.BoutiqueError) {
                    self.id = try decoder.decode(Int.self)
                }
                public func encodeColumns(into encoder: inout BoutiqueQueries.RowEncoder) {
                    encoder.encode(self.id)
                }
                public struct Draft: BoutiqueQueries.TableDraft {
                    public typealias Root = Note
                    public var id: Int?
                    public init(id: Int? = nil) {
                        self.id = id
                    }
                    public init(_ other: Note) {
                        self.id = other.id
                    }
                    public func encodeColumns(into encoder: inout BoutiqueQueries.RowEncoder) {
                        encoder.encode(self.id)
                    }
                }
            }

            nonisolated extension Note: BoutiqueQueries.BoutiqueTableOptions {
                public static var tableOptions: BoutiqueQueries.TableOptions { [.strict, .withoutRowID] }
            }
            """
        )
    }

    /// No options: an empty set.
    @Test func boutiqueTableWithoutOptions() {
        assertExpansion(
            """
            @Table @BoutiqueTable
            struct Log {
                var message: String
            }
            """,
            expandedSource: """
            struct Log {
                var message: String
            }

            nonisolated extension Log: BoutiqueQueries.Table {
                struct TableColumns: BoutiqueQueries.TableDefinition {
                    typealias Root = Log
                    var message: BoutiqueQueries.TableColumn<Log, String> { .init("message") }
                    static let allColumns: [BoutiqueQueries.ColumnSchema] = makeAllColumns()
                    private static func makeAllColumns() -> [BoutiqueQueries.ColumnSchema] {
                        BoutiqueQueries.ColumnSchema.flattened([
                            BoutiqueQueries.ColumnSchema("message", as: String.self),
                        ])
                    }
                    init() {}
                }
                struct Columns: BoutiqueQueries.QueryExpression, Sendable {
                    typealias QueryValue = Log
                    let queryFragment: BoutiqueQueries.QueryFragment
                    init(message: some BoutiqueQueries.QueryExpression<String>) {
                        self.queryFragment = [message.queryFragment].joined(separator: ", ")
                    }
                }
                static var columns: TableColumns { TableColumns() }
                static var tableName: String { "log" }
                init(decoder: inout BoutiqueQueries.RowDecoder) throws(BoutiqueQueries.BoutiqueError) {
                    self.message = try decoder.decode(String.self)
                }
                func encodeColumns(into encoder: inout BoutiqueQueries.RowEncoder) {
                    encoder.encode(self.message)
                }
            }

            nonisolated extension Log: BoutiqueQueries.BoutiqueTableOptions {
                static var tableOptions: BoutiqueQueries.TableOptions { [] }
            }
            """
        )
    }

    /// `@BoutiqueTable` alone: fix-it adds `@Table`; options must be literals.
    @Test func boutiqueTableWithoutTable() {
        assertExpansion(
            """
            @BoutiqueTable(strict: flag)
            struct Note {
                let id: Int
            }
            """,
            expandedSource: """
            struct Note {
                let id: Int
            }
            """,
            diagnostics: [
                ExpectedDiagnostic(message: "@BoutiqueTable needs @Table on the same struct", line: 1, column: 1, fixIts: ["add '@Table'"]),
                ExpectedDiagnostic(message: "'strict:' must be 'true' or 'false'", line: 1, column: 24),
            ],
            fixedSource: """
            @Table @BoutiqueTable(strict: flag)
            struct Note {
                let id: Int
            }
            """
        )
    }

    /// WITHOUT ROWID tables are stored by key.
    @Test func withoutRowIDNeedsAPrimaryKey() {
        assertExpansion(
            """
            @Table @BoutiqueTable(withoutRowID: true)
            struct Log {
                var message: String
            }
            """,
            expandedSource: """
            struct Log {
                var message: String
            }

            nonisolated extension Log: BoutiqueQueries.Table {
                struct TableColumns: BoutiqueQueries.TableDefinition {
                    typealias Root = Log
                    var message: BoutiqueQueries.TableColumn<Log, String> { .init("message") }
                    static let allColumns: [BoutiqueQueries.ColumnSchema] = makeAllColumns()
                    private static func makeAllColumns() -> [BoutiqueQueries.ColumnSchema] {
                        BoutiqueQueries.ColumnSchema.flattened([
                            BoutiqueQueries.ColumnSchema("message", as: String.self),
                        ])
                    }
                    init() {}
                }
                struct Columns: BoutiqueQueries.QueryExpression, Sendable {
                    typealias QueryValue = Log
                    let queryFragment: BoutiqueQueries.QueryFragment
                    init(message: some BoutiqueQueries.QueryExpression<String>) {
                        self.queryFragment = [message.queryFragment].joined(separator: ", ")
                    }
                }
                static var columns: TableColumns { TableColumns() }
                static var tableName: String { "log" }
                init(decoder: inout BoutiqueQueries.RowDecoder) throws(BoutiqueQueries.BoutiqueError) {
                    self.message = try decoder.decode(String.self)
                }
                func encodeColumns(into encoder: inout BoutiqueQueries.RowEncoder) {
                    encoder.encode(self.message)
                }
            }
            """,
            diagnostics: [
                ExpectedDiagnostic(message: "a WITHOUT ROWID table needs a primary key: add a column named 'id' or mark one @Column(primaryKey: true)", line: 1, column: 8),
            ]
        )
    }
}
