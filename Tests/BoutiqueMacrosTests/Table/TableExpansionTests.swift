import Testing

/// The full text `@Table` expands to, for each shape of model.
@Suite struct TableExpansionTests {
    /// The product description's model: a `UUID` key marked `@Column(primaryKey: true)` and a default.
    @Test func seedNote() {
        assertExpansion(
            """
            @Table
            struct Note: Sendable {
                @Column(primaryKey: true) let id: UUID
                var title: String
                var body: String
                var updatedAt: Date = Date()
            }
            """,
            expandedSource: """
            struct Note: Sendable {
                let id: UUID
                var title: String
                var body: String
                var updatedAt: Date = Date()
            }

            nonisolated extension Note: BoutiqueQueries.Table, BoutiqueQueries.PrimaryKeyedTable {
                struct TableColumns: BoutiqueQueries.PrimaryKeyedTableDefinition {
                    typealias Root = Note
                    typealias PrimaryKey = UUID
                    var id: BoutiqueQueries.TableColumn<Note, UUID> { .init("id") }
                    var title: BoutiqueQueries.TableColumn<Note, String> { .init("title") }
                    var body: BoutiqueQueries.TableColumn<Note, String> { .init("body") }
                    var updatedAt: BoutiqueQueries.TableColumn<Note, Date> { .init("updatedAt") }
                    var primaryKey: BoutiqueQueries.TableColumn<Note, UUID> { id }
                    static let allColumns: [BoutiqueQueries.ColumnSchema] = makeAllColumns()
                    private static func makeAllColumns() -> [BoutiqueQueries.ColumnSchema] {
                        BoutiqueQueries.ColumnSchema.flattened([
                            BoutiqueQueries.ColumnSchema("id", as: UUID.self, primaryKey: true),
                            BoutiqueQueries.ColumnSchema("title", as: String.self),
                            BoutiqueQueries.ColumnSchema("body", as: String.self),
                            BoutiqueQueries.ColumnSchema("updatedAt", as: Date.self),
                        ])
                    }
                    init() {}
                }
                struct Columns: BoutiqueQueries.QueryExpression, Sendable {
                    typealias QueryValue = Note
                    let queryFragment: BoutiqueQueries.QueryFragment
                    init(id: some BoutiqueQueries.QueryExpression<UUID>, title: some BoutiqueQueries.QueryExpression<String>, body: some BoutiqueQueries.QueryExpression<String>, updatedAt: some BoutiqueQueries.QueryExpression<Date> = BoutiqueQueries.SQLExpression<Date>(bound: Date())) {
                        self.queryFragment = [id.queryFragment, title.queryFragment, body.queryFragment, updatedAt.queryFragment].joined(separator: ", ")
                    }
                }
                static var columns: TableColumns { TableColumns() }
                static var tableName: String { "note" }
                init(decoder: inout BoutiqueQueries.RowDecoder) throws(BoutiqueQueries.BoutiqueError) {
                    self.id = try decoder.decode(UUID.self)
                    self.title = try decoder.decode(String.self)
                    self.body = try decoder.decode(String.self)
                    self.updatedAt = try decoder.decode(Date.self)
                }
                func encodeColumns(into encoder: inout BoutiqueQueries.RowEncoder) {
                    encoder.encode(self.id, as: UUID.self)
                    encoder.encode(self.title)
                    encoder.encode(self.body)
                    encoder.encode(self.updatedAt, as: Date.self)
                }
                struct Draft: BoutiqueQueries.TableDraft {
                    typealias Root = Note
                    var id: UUID?
                    var title: String
                    var body: String
                    var updatedAt: Date
                    init(id: UUID? = UUID(), title: String, body: String, updatedAt: Date = Date()) {
                        self.id = id
                        self.title = title
                        self.body = body
                        self.updatedAt = updatedAt
                    }
                    init(_ other: Note) {
                        self.id = other.id
                        self.title = other.title
                        self.body = other.body
                        self.updatedAt = other.updatedAt
                    }
                    func encodeColumns(into encoder: inout BoutiqueQueries.RowEncoder) {
                        encoder.encode(self.id, as: UUID?.self)
                        encoder.encode(self.title)
                        encoder.encode(self.body)
                        encoder.encode(self.updatedAt, as: Date.self)
                    }
                }
            }
            """
        )
    }

    /// Custom names, a representation, a literal default, an optional, a generated and an ephemeral property.
    @Test func everyColumnFeature() {
        assertExpansion(
            """
            @Table
            struct Note: Sendable {
                @Column(primaryKey: true) let id: UUID
                var title: String
                @Column("body_text") var body: String
                @Column(as: Date.ISO8601Representation.self) var createdAt: Date
                var updatedAt: Date = Date()
                var isPinned: Bool = false
                var rating: Int?
                @Column(generated: .virtual("lower(title)")) let titleLower: String
                @Ephemeral var isSelected = false
            }
            """,
            expandedSource: """
            struct Note: Sendable {
                let id: UUID
                var title: String
                var body: String
                var createdAt: Date
                var updatedAt: Date = Date()
                var isPinned: Bool = false
                var rating: Int?
                let titleLower: String
                var isSelected = false
            }

            nonisolated extension Note: BoutiqueQueries.Table, BoutiqueQueries.PrimaryKeyedTable {
                struct TableColumns: BoutiqueQueries.PrimaryKeyedTableDefinition {
                    typealias Root = Note
                    typealias PrimaryKey = UUID
                    var id: BoutiqueQueries.TableColumn<Note, UUID> { .init("id") }
                    var title: BoutiqueQueries.TableColumn<Note, String> { .init("title") }
                    var body: BoutiqueQueries.TableColumn<Note, String> { .init("body_text") }
                    var createdAt: BoutiqueQueries.TableColumn<Note, Date.ISO8601Representation> { .init("createdAt") }
                    var updatedAt: BoutiqueQueries.TableColumn<Note, Date> { .init("updatedAt") }
                    var isPinned: BoutiqueQueries.TableColumn<Note, Bool> { .init("isPinned") }
                    var rating: BoutiqueQueries.TableColumn<Note, Int?> { .init("rating") }
                    var titleLower: BoutiqueQueries.TableColumn<Note, String> { .init("titleLower") }
                    var primaryKey: BoutiqueQueries.TableColumn<Note, UUID> { id }
                    static let allColumns: [BoutiqueQueries.ColumnSchema] = makeAllColumns()
                    private static func makeAllColumns() -> [BoutiqueQueries.ColumnSchema] {
                        BoutiqueQueries.ColumnSchema.flattened([
                            BoutiqueQueries.ColumnSchema("id", as: UUID.self, primaryKey: true),
                            BoutiqueQueries.ColumnSchema("title", as: String.self),
                            BoutiqueQueries.ColumnSchema("body_text", as: String.self),
                            BoutiqueQueries.ColumnSchema("createdAt", as: Date.ISO8601Representation.self),
                            BoutiqueQueries.ColumnSchema("updatedAt", as: Date.self),
                            BoutiqueQueries.ColumnSchema("isPinned", as: Bool.self, defaultValue: .integer(0)),
                            BoutiqueQueries.ColumnSchema("rating", as: Int?.self),
                            BoutiqueQueries.ColumnSchema("titleLower", as: String.self, generated: .virtual("lower(title)")),
                        ])
                    }
                    init() {}
                }
                struct Columns: BoutiqueQueries.QueryExpression, Sendable {
                    typealias QueryValue = Note
                    let queryFragment: BoutiqueQueries.QueryFragment
                    init(id: some BoutiqueQueries.QueryExpression<UUID>, title: some BoutiqueQueries.QueryExpression<String>, body: some BoutiqueQueries.QueryExpression<String>, createdAt: some BoutiqueQueries.QueryExpression<Date.ISO8601Representation>, updatedAt: some BoutiqueQueries.QueryExpression<Date> = BoutiqueQueries.SQLExpression<Date>(bound: Date()), isPinned: some BoutiqueQueries.QueryExpression<Bool> = BoutiqueQueries.SQLExpression<Bool>(bound: false), rating: some BoutiqueQueries.QueryExpression<Int?> = BoutiqueQueries.SQLExpression<Int?>(bound: nil), titleLower: some BoutiqueQueries.QueryExpression<String>) {
                        self.queryFragment = [id.queryFragment, title.queryFragment, body.queryFragment, createdAt.queryFragment, updatedAt.queryFragment, isPinned.queryFragment, rating.queryFragment, titleLower.queryFragment].joined(separator: ", ")
                    }
                }
                static var columns: TableColumns { TableColumns() }
                static var tableName: String { "note" }
                init(decoder: inout BoutiqueQueries.RowDecoder) throws(BoutiqueQueries.BoutiqueError) {
                    self.id = try decoder.decode(UUID.self)
                    self.title = try decoder.decode(String.self)
                    self.body = try decoder.decode(String.self)
                    self.createdAt = try decoder.decode(Date.ISO8601Representation.self)
                    self.updatedAt = try decoder.decode(Date.self)
                    self.isPinned = try decoder.decode(Bool.self)
                    self.rating = try decoder.decode(Int?.self)
                    self.titleLower = try decoder.decode(String.self)
                }
                func encodeColumns(into encoder: inout BoutiqueQueries.RowEncoder) {
                    encoder.encode(self.id, as: UUID.self)
                    encoder.encode(self.title)
                    encoder.encode(self.body)
                    encoder.encode(self.createdAt, as: Date.ISO8601Representation.self)
                    encoder.encode(self.updatedAt, as: Date.self)
                    encoder.encode(self.isPinned)
                    encoder.encode(self.rating)
                }
                struct Draft: BoutiqueQueries.TableDraft {
                    typealias Root = Note
                    var id: UUID?
                    var title: String
                    var body: String
                    var createdAt: Date
                    var updatedAt: Date
                    var isPinned: Bool
                    var rating: Int?
                    init(id: UUID? = UUID(), title: String, body: String, createdAt: Date, updatedAt: Date = Date(), isPinned: Bool = false, rating: Int? = nil) {
                        self.id = id
                        self.title = title
                        self.body = body
                        self.createdAt = createdAt
                        self.updatedAt = updatedAt
                        self.isPinned = isPinned
                        self.rating = rating
                    }
                    init(_ other: Note) {
                        self.id = other.id
                        self.title = other.title
                        self.body = other.body
                        self.createdAt = other.createdAt
                        self.updatedAt = other.updatedAt
                        self.isPinned = other.isPinned
                        self.rating = other.rating
                    }
                    func encodeColumns(into encoder: inout BoutiqueQueries.RowEncoder) {
                        encoder.encode(self.id, as: UUID?.self)
                        encoder.encode(self.title)
                        encoder.encode(self.body)
                        encoder.encode(self.createdAt, as: Date.ISO8601Representation.self)
                        encoder.encode(self.updatedAt, as: Date.self)
                        encoder.encode(self.isPinned)
                        encoder.encode(self.rating)
                    }
                }
            }
            """
        )
    }

    /// No `id` and no marked key: only `Table`, no `Draft`.
    @Test func withoutPrimaryKey() {
        assertExpansion(
            """
            @Table
            struct LogLine {
                var message: String
                var level = 0
            }
            """,
            expandedSource: """
            struct LogLine {
                var message: String
                var level = 0
            }

            nonisolated extension LogLine: BoutiqueQueries.Table {
                struct TableColumns: BoutiqueQueries.TableDefinition {
                    typealias Root = LogLine
                    var message: BoutiqueQueries.TableColumn<LogLine, String> { .init("message") }
                    var level: BoutiqueQueries.TableColumn<LogLine, Int> { .init("level") }
                    static let allColumns: [BoutiqueQueries.ColumnSchema] = makeAllColumns()
                    private static func makeAllColumns() -> [BoutiqueQueries.ColumnSchema] {
                        BoutiqueQueries.ColumnSchema.flattened([
                            BoutiqueQueries.ColumnSchema("message", as: String.self),
                            BoutiqueQueries.ColumnSchema("level", as: Int.self, defaultValue: .integer(0)),
                        ])
                    }
                    init() {}
                }
                struct Columns: BoutiqueQueries.QueryExpression, Sendable {
                    typealias QueryValue = LogLine
                    let queryFragment: BoutiqueQueries.QueryFragment
                    init(message: some BoutiqueQueries.QueryExpression<String>, level: some BoutiqueQueries.QueryExpression<Int> = BoutiqueQueries.SQLExpression<Int>(bound: 0)) {
                        self.queryFragment = [message.queryFragment, level.queryFragment].joined(separator: ", ")
                    }
                }
                static var columns: TableColumns { TableColumns() }
                static var tableName: String { "logLine" }
                init(decoder: inout BoutiqueQueries.RowDecoder) throws(BoutiqueQueries.BoutiqueError) {
                    self.message = try decoder.decode(String.self)
                    self.level = try decoder.decode(Int.self)
                }
                func encodeColumns(into encoder: inout BoutiqueQueries.RowEncoder) {
                    encoder.encode(self.message)
                    encoder.encode(self.level)
                }
            }
            """
        )
    }

    /// A property named `id` is the key; the draft leaves it `nil` for SQLite to assign.
    @Test func implicitIntegerKey() {
        assertExpansion(
            """
            @Table("tags")
            struct Tag {
                let id: Int
                var name: String = "it's"
                var weight = -1.5
                var note: String? = nil
            }
            """,
            expandedSource: """
            struct Tag {
                let id: Int
                var name: String = "it's"
                var weight = -1.5
                var note: String? = nil
            }

            nonisolated extension Tag: BoutiqueQueries.Table, BoutiqueQueries.PrimaryKeyedTable {
                struct TableColumns: BoutiqueQueries.PrimaryKeyedTableDefinition {
                    typealias Root = Tag
                    typealias PrimaryKey = Int
                    var id: BoutiqueQueries.TableColumn<Tag, Int> { .init("id") }
                    var name: BoutiqueQueries.TableColumn<Tag, String> { .init("name") }
                    var weight: BoutiqueQueries.TableColumn<Tag, Double> { .init("weight") }
                    var note: BoutiqueQueries.TableColumn<Tag, String?> { .init("note") }
                    var primaryKey: BoutiqueQueries.TableColumn<Tag, Int> { id }
                    static let allColumns: [BoutiqueQueries.ColumnSchema] = makeAllColumns()
                    private static func makeAllColumns() -> [BoutiqueQueries.ColumnSchema] {
                        BoutiqueQueries.ColumnSchema.flattened([
                            BoutiqueQueries.ColumnSchema("id", as: Int.self, primaryKey: true),
                            BoutiqueQueries.ColumnSchema("name", as: String.self, defaultValue: .text("it's")),
                            BoutiqueQueries.ColumnSchema("weight", as: Double.self, defaultValue: .real(-1.5)),
                            BoutiqueQueries.ColumnSchema("note", as: String?.self, defaultValue: .null),
                        ])
                    }
                    init() {}
                }
                struct Columns: BoutiqueQueries.QueryExpression, Sendable {
                    typealias QueryValue = Tag
                    let queryFragment: BoutiqueQueries.QueryFragment
                    init(id: some BoutiqueQueries.QueryExpression<Int>, name: some BoutiqueQueries.QueryExpression<String> = BoutiqueQueries.SQLExpression<String>(bound: "it's"), weight: some BoutiqueQueries.QueryExpression<Double> = BoutiqueQueries.SQLExpression<Double>(bound: -1.5), note: some BoutiqueQueries.QueryExpression<String?> = BoutiqueQueries.SQLExpression<String?>(bound: nil)) {
                        self.queryFragment = [id.queryFragment, name.queryFragment, weight.queryFragment, note.queryFragment].joined(separator: ", ")
                    }
                }
                static var columns: TableColumns { TableColumns() }
                static var tableName: String { "tags" }
                init(decoder: inout BoutiqueQueries.RowDecoder) throws(BoutiqueQueries.BoutiqueError) {
                    self.id = try decoder.decode(Int.self)
                    self.name = try decoder.decode(String.self)
                    self.weight = try decoder.decode(Double.self)
                    self.note = try decoder.decode(String?.self)
                }
                func encodeColumns(into encoder: inout BoutiqueQueries.RowEncoder) {
                    encoder.encode(self.id)
                    encoder.encode(self.name)
                    encoder.encode(self.weight)
                    encoder.encode(self.note)
                }
                struct Draft: BoutiqueQueries.TableDraft {
                    typealias Root = Tag
                    var id: Int?
                    var name: String
                    var weight: Double
                    var note: String?
                    init(id: Int? = nil, name: String = "it's", weight: Double = -1.5, note: String? = nil) {
                        self.id = id
                        self.name = name
                        self.weight = weight
                        self.note = note
                    }
                    init(_ other: Tag) {
                        self.id = other.id
                        self.name = other.name
                        self.weight = other.weight
                        self.note = other.note
                    }
                    func encodeColumns(into encoder: inout BoutiqueQueries.RowEncoder) {
                        encoder.encode(self.id)
                        encoder.encode(self.name)
                        encoder.encode(self.weight)
                        encoder.encode(self.note)
                    }
                }
            }
            """
        )
    }

    /// `lazyInitializable: true` makes a column optional in the Draft only: the row keeps its type, and
    /// the draft's field defaults to `nil` and is written as an optional value.
    @Test func lazyInitializableColumns() {
        assertExpansion(
            """
            @Table
            struct User {
                let id: Int
                @Column(lazyInitializable: true)
                let createdAt: Date
                @Column(as: Date.ISO8601Representation.self, lazyInitializable: true)
                let updatedAt: Date
            }
            """,
            expandedSource: """
            struct User {
                let id: Int
                let createdAt: Date
                let updatedAt: Date
            }

            nonisolated extension User: BoutiqueQueries.Table, BoutiqueQueries.PrimaryKeyedTable {
                struct TableColumns: BoutiqueQueries.PrimaryKeyedTableDefinition {
                    typealias Root = User
                    typealias PrimaryKey = Int
                    var id: BoutiqueQueries.TableColumn<User, Int> { .init("id") }
                    var createdAt: BoutiqueQueries.TableColumn<User, Date> { .init("createdAt") }
                    var updatedAt: BoutiqueQueries.TableColumn<User, Date.ISO8601Representation> { .init("updatedAt") }
                    var primaryKey: BoutiqueQueries.TableColumn<User, Int> { id }
                    static let allColumns: [BoutiqueQueries.ColumnSchema] = makeAllColumns()
                    private static func makeAllColumns() -> [BoutiqueQueries.ColumnSchema] {
                        BoutiqueQueries.ColumnSchema.flattened([
                            BoutiqueQueries.ColumnSchema("id", as: Int.self, primaryKey: true),
                            BoutiqueQueries.ColumnSchema("createdAt", as: Date.self),
                            BoutiqueQueries.ColumnSchema("updatedAt", as: Date.ISO8601Representation.self),
                        ])
                    }
                    init() {}
                }
                struct Columns: BoutiqueQueries.QueryExpression, Sendable {
                    typealias QueryValue = User
                    let queryFragment: BoutiqueQueries.QueryFragment
                    init(id: some BoutiqueQueries.QueryExpression<Int>, createdAt: some BoutiqueQueries.QueryExpression<Date>, updatedAt: some BoutiqueQueries.QueryExpression<Date.ISO8601Representation>) {
                        self.queryFragment = [id.queryFragment, createdAt.queryFragment, updatedAt.queryFragment].joined(separator: ", ")
                    }
                }
                static var columns: TableColumns { TableColumns() }
                static var tableName: String { "user" }
                init(decoder: inout BoutiqueQueries.RowDecoder) throws(BoutiqueQueries.BoutiqueError) {
                    self.id = try decoder.decode(Int.self)
                    self.createdAt = try decoder.decode(Date.self)
                    self.updatedAt = try decoder.decode(Date.ISO8601Representation.self)
                }
                func encodeColumns(into encoder: inout BoutiqueQueries.RowEncoder) {
                    encoder.encode(self.id)
                    encoder.encode(self.createdAt, as: Date.self)
                    encoder.encode(self.updatedAt, as: Date.ISO8601Representation.self)
                }
                struct Draft: BoutiqueQueries.TableDraft {
                    typealias Root = User
                    var id: Int?
                    var createdAt: Date?
                    var updatedAt: Date?
                    init(id: Int? = nil, createdAt: Date? = nil, updatedAt: Date? = nil) {
                        self.id = id
                        self.createdAt = createdAt
                        self.updatedAt = updatedAt
                    }
                    init(_ other: User) {
                        self.id = other.id
                        self.createdAt = other.createdAt
                        self.updatedAt = other.updatedAt
                    }
                    func encodeColumns(into encoder: inout BoutiqueQueries.RowEncoder) {
                        encoder.encode(self.id)
                        encoder.encode(self.createdAt, as: Date?.self)
                        encoder.encode(self.updatedAt, as: Date.ISO8601Representation?.self)
                    }
                }
            }
            """
        )
    }

    /// A public model: public members, an explicit table name, `id` opted out, a keyword name, two bindings in one declaration, and properties that are not columns.
    @Test func publicModelNamesAndSkippedProperties() {
        assertExpansion(
            """
            @Table("people")
            public struct Person: Sendable {
                @Column(primaryKey: false) var id: Int
                @Column("full_name") var name: String
                @Column(as: Date.UnixTimeRepresentation.self) var bornAt: Date?
                var `default`: Bool = true
                var a, b: Double
                static var count = 0
                var computed: Int { 1 }
                lazy var cache: [Int] = []
                var observed: Int = 0 {
                    didSet { print(observed) }
                }
            }
            """,
            expandedSource: """
            public struct Person: Sendable {
                var id: Int
                var name: String
                var bornAt: Date?
                var `default`: Bool = true
                var a, b: Double
                static var count = 0
                var computed: Int { 1 }
                lazy var cache: [Int] = []
                var observed: Int = 0 {
                    didSet { print(observed) }
                }
            }

            nonisolated extension Person: BoutiqueQueries.Table {
                public struct TableColumns: BoutiqueQueries.TableDefinition {
                    public typealias Root = Person
                    public var id: BoutiqueQueries.TableColumn<Person, Int> { .init("id") }
                    public var name: BoutiqueQueries.TableColumn<Person, String> { .init("full_name") }
                    public var bornAt: BoutiqueQueries.TableColumn<Person, Date.UnixTimeRepresentation?> { .init("bornAt") }
                    public var `default`: BoutiqueQueries.TableColumn<Person, Bool> { .init("default") }
                    public var a: BoutiqueQueries.TableColumn<Person, Double> { .init("a") }
                    public var b: BoutiqueQueries.TableColumn<Person, Double> { .init("b") }
                    public var observed: BoutiqueQueries.TableColumn<Person, Int> { .init("observed") }
                    public static let allColumns: [BoutiqueQueries.ColumnSchema] = makeAllColumns()
                    private static func makeAllColumns() -> [BoutiqueQueries.ColumnSchema] {
                        BoutiqueQueries.ColumnSchema.flattened([
                            BoutiqueQueries.ColumnSchema("id", as: Int.self),
                            BoutiqueQueries.ColumnSchema("full_name", as: String.self),
                            BoutiqueQueries.ColumnSchema("bornAt", as: Date.UnixTimeRepresentation?.self),
                            BoutiqueQueries.ColumnSchema("default", as: Bool.self, defaultValue: .integer(1)),
                            BoutiqueQueries.ColumnSchema("a", as: Double.self),
                            BoutiqueQueries.ColumnSchema("b", as: Double.self),
                            BoutiqueQueries.ColumnSchema("observed", as: Int.self, defaultValue: .integer(0)),
                        ])
                    }
                    public init() {}
                }
                public struct Columns: BoutiqueQueries.QueryExpression, Sendable {
                    public typealias QueryValue = Person
                    public let queryFragment: BoutiqueQueries.QueryFragment
                    public init(id: some BoutiqueQueries.QueryExpression<Int>, name: some BoutiqueQueries.QueryExpression<String>, bornAt: some BoutiqueQueries.QueryExpression<Date.UnixTimeRepresentation?> = BoutiqueQueries.SQLExpression<Date.UnixTimeRepresentation?>(bound: nil), `default`: some BoutiqueQueries.QueryExpression<Bool> = BoutiqueQueries.SQLExpression<Bool>(bound: true), a: some BoutiqueQueries.QueryExpression<Double>, b: some BoutiqueQueries.QueryExpression<Double>, observed: some BoutiqueQueries.QueryExpression<Int> = BoutiqueQueries.SQLExpression<Int>(bound: 0)) {
                        self.queryFragment = [id.queryFragment, name.queryFragment, bornAt.queryFragment, `default`.queryFragment, a.queryFragment, b.queryFragment, observed.queryFragment].joined(separator: ", ")
                    }
                }
                public static var columns: TableColumns { TableColumns() }
                public static var tableName: String { "people" }
                public init(decoder: inout BoutiqueQueries.RowDecoder) throws(BoutiqueQueries.BoutiqueError) {
                    self.id = try decoder.decode(Int.self)
                    self.name = try decoder.decode(String.self)
                    self.bornAt = try decoder.decode(Date.UnixTimeRepresentation?.self)
                    self.`default` = try decoder.decode(Bool.self)
                    self.a = try decoder.decode(Double.self)
                    self.b = try decoder.decode(Double.self)
                    self.observed = try decoder.decode(Int.self)
                }
                public func encodeColumns(into encoder: inout BoutiqueQueries.RowEncoder) {
                    encoder.encode(self.id)
                    encoder.encode(self.name)
                    encoder.encode(self.bornAt, as: Date.UnixTimeRepresentation?.self)
                    encoder.encode(self.`default`)
                    encoder.encode(self.a)
                    encoder.encode(self.b)
                    encoder.encode(self.observed)
                }
            }
            """
        )
    }

    /// A key stored with a representation keeps it in the draft, made optional.
    @Test func representationOfTheKey() {
        assertExpansion(
            """
            @Table
            package struct Device {
                @Column(as: UUID.BytesRepresentation.self, primaryKey: true) let serial: UUID
                @Column(as: JSONRepresentation<[String]>.self) var tags: [String]
                var createdAt = Date()
                var id = UUID()
            }
            """,
            expandedSource: """
            package struct Device {
                let serial: UUID
                var tags: [String]
                var createdAt = Date()
                var id = UUID()
            }

            nonisolated extension Device: BoutiqueQueries.Table, BoutiqueQueries.PrimaryKeyedTable {
                package struct TableColumns: BoutiqueQueries.PrimaryKeyedTableDefinition {
                    package typealias Root = Device
                    package typealias PrimaryKey = UUID.BytesRepresentation
                    package var serial: BoutiqueQueries.TableColumn<Device, UUID.BytesRepresentation> { .init("serial") }
                    package var tags: BoutiqueQueries.TableColumn<Device, JSONRepresentation<[String]>> { .init("tags") }
                    package var createdAt: BoutiqueQueries.TableColumn<Device, Date> { .init("createdAt") }
                    package var id: BoutiqueQueries.TableColumn<Device, UUID> { .init("id") }
                    package var primaryKey: BoutiqueQueries.TableColumn<Device, UUID.BytesRepresentation> { serial }
                    package static let allColumns: [BoutiqueQueries.ColumnSchema] = makeAllColumns()
                    private static func makeAllColumns() -> [BoutiqueQueries.ColumnSchema] {
                        BoutiqueQueries.ColumnSchema.flattened([
                            BoutiqueQueries.ColumnSchema("serial", as: UUID.BytesRepresentation.self, primaryKey: true),
                            BoutiqueQueries.ColumnSchema("tags", as: JSONRepresentation<[String]>.self),
                            BoutiqueQueries.ColumnSchema("createdAt", as: Date.self),
                            BoutiqueQueries.ColumnSchema("id", as: UUID.self),
                        ])
                    }
                    package init() {}
                }
                package struct Columns: BoutiqueQueries.QueryExpression, Sendable {
                    package typealias QueryValue = Device
                    package let queryFragment: BoutiqueQueries.QueryFragment
                    package init(serial: some BoutiqueQueries.QueryExpression<UUID.BytesRepresentation>, tags: some BoutiqueQueries.QueryExpression<JSONRepresentation<[String]>>, createdAt: some BoutiqueQueries.QueryExpression<Date> = BoutiqueQueries.SQLExpression<Date>(bound: Date()), id: some BoutiqueQueries.QueryExpression<UUID> = BoutiqueQueries.SQLExpression<UUID>(bound: UUID())) {
                        self.queryFragment = [serial.queryFragment, tags.queryFragment, createdAt.queryFragment, id.queryFragment].joined(separator: ", ")
                    }
                }
                package static var columns: TableColumns { TableColumns() }
                package static var tableName: String { "device" }
                package init(decoder: inout BoutiqueQueries.RowDecoder) throws(BoutiqueQueries.BoutiqueError) {
                    self.serial = try decoder.decode(UUID.BytesRepresentation.self)
                    self.tags = try decoder.decode(JSONRepresentation<[String]>.self)
                    self.createdAt = try decoder.decode(Date.self)
                    self.id = try decoder.decode(UUID.self)
                }
                package func encodeColumns(into encoder: inout BoutiqueQueries.RowEncoder) {
                    encoder.encode(self.serial, as: UUID.BytesRepresentation.self)
                    encoder.encode(self.tags, as: JSONRepresentation<[String]>.self)
                    encoder.encode(self.createdAt, as: Date.self)
                    encoder.encode(self.id, as: UUID.self)
                }
                package struct Draft: BoutiqueQueries.TableDraft {
                    package typealias Root = Device
                    package var serial: UUID?
                    package var tags: [String]
                    package var createdAt: Date
                    package var id: UUID
                    package init(serial: UUID? = UUID(), tags: [String], createdAt: Date = Date(), id: UUID = UUID()) {
                        self.serial = serial
                        self.tags = tags
                        self.createdAt = createdAt
                        self.id = id
                    }
                    package init(_ other: Device) {
                        self.serial = other.serial
                        self.tags = other.tags
                        self.createdAt = other.createdAt
                        self.id = other.id
                    }
                    package func encodeColumns(into encoder: inout BoutiqueQueries.RowEncoder) {
                        encoder.encode(self.serial, as: UUID.BytesRepresentation?.self)
                        encoder.encode(self.tags, as: JSONRepresentation<[String]>.self)
                        encoder.encode(self.createdAt, as: Date.self)
                        encoder.encode(self.id, as: UUID.self)
                    }
                }
            }
            """
        )
    }

    /// A nested model: the extension names the qualified type, the table its own name.
    @Test func nestedType() {
        assertExpansion(
            """
            enum Models {
                @Table
                struct Item {
                    let id: Int
                }
            }
            """,
            expandedSource: """
            enum Models {
                struct Item {
                    let id: Int
                }
            }

            \(Self.nestedItemMembers)
            """
        )
    }

    /// A public struct nested in an internal type is internal in effect: its members are those of the
    /// internal struct above, with no `public`.
    @Test func publicTypeInAnInternalEnum() {
        assertExpansion(
            """
            enum Models {
                @Table
                public struct Item {
                    public let id: Int
                }
            }
            """,
            expandedSource: """
            enum Models {
                public struct Item {
                    public let id: Int
                }
            }

            \(Self.nestedItemMembers)
            """
        )
    }

    /// What `@Table` adds to `Models.Item`, a struct with an `Int` key whose members are internal.
    private static let nestedItemMembers = """
        nonisolated extension Models.Item: BoutiqueQueries.Table, BoutiqueQueries.PrimaryKeyedTable {
            struct TableColumns: BoutiqueQueries.PrimaryKeyedTableDefinition {
                typealias Root = Models.Item
                typealias PrimaryKey = Int
                var id: BoutiqueQueries.TableColumn<Models.Item, Int> { .init("id") }
                var primaryKey: BoutiqueQueries.TableColumn<Models.Item, Int> { id }
                static let allColumns: [BoutiqueQueries.ColumnSchema] = makeAllColumns()
                private static func makeAllColumns() -> [BoutiqueQueries.ColumnSchema] {
                    BoutiqueQueries.ColumnSchema.flattened([
                        BoutiqueQueries.ColumnSchema("id", as: Int.self, primaryKey: true),
                    ])
                }
                init() {}
            }
            struct Columns: BoutiqueQueries.QueryExpression, Sendable {
                typealias QueryValue = Models.Item
                let queryFragment: BoutiqueQueries.QueryFragment
                init(id: some BoutiqueQueries.QueryExpression<Int>) {
                    self.queryFragment = [id.queryFragment].joined(separator: ", ")
                }
            }
            static var columns: TableColumns { TableColumns() }
            static var tableName: String { "item" }
            init(decoder: inout BoutiqueQueries.RowDecoder) throws(BoutiqueQueries.BoutiqueError) {
                self.id = try decoder.decode(Int.self)
            }
            func encodeColumns(into encoder: inout BoutiqueQueries.RowEncoder) {
                encoder.encode(self.id)
            }
            struct Draft: BoutiqueQueries.TableDraft {
                typealias Root = Models.Item
                var id: Int?
                init(id: Int? = nil) {
                    self.id = id
                }
                init(_ other: Models.Item) {
                    self.id = other.id
                }
                func encodeColumns(into encoder: inout BoutiqueQueries.RowEncoder) {
                    encoder.encode(self.id)
                }
            }
        }
        """

    /// A generated column without its expression (the app's SQL declares it) and a field whose type is
    /// a group of columns: the expansion names both as it names any column; the group is found by its
    /// type when the program runs (`ColumnSchema.flattened`, the column handle, the encoder).
    @Test func generatedColumnWithoutExpressionAndAGroupField() {
        assertExpansion(
            """
            @Table
            struct Event {
                let id: Int
                var startAt: Date
                var timestamps: Timestamps
                @Column(generated: .stored) let endAt: Date
            }
            """,
            expandedSource: """
            struct Event {
                let id: Int
                var startAt: Date
                var timestamps: Timestamps
                let endAt: Date
            }

            nonisolated extension Event: BoutiqueQueries.Table, BoutiqueQueries.PrimaryKeyedTable {
                struct TableColumns: BoutiqueQueries.PrimaryKeyedTableDefinition {
                    typealias Root = Event
                    typealias PrimaryKey = Int
                    var id: BoutiqueQueries.TableColumn<Event, Int> { .init("id") }
                    var startAt: BoutiqueQueries.TableColumn<Event, Date> { .init("startAt") }
                    let timestamps = BoutiqueQueries.TableColumn<Event, Timestamps>.handle("timestamps")
                    var endAt: BoutiqueQueries.TableColumn<Event, Date> { .init("endAt") }
                    var primaryKey: BoutiqueQueries.TableColumn<Event, Int> { id }
                    static let allColumns: [BoutiqueQueries.ColumnSchema] = makeAllColumns()
                    private static func makeAllColumns() -> [BoutiqueQueries.ColumnSchema] {
                        BoutiqueQueries.ColumnSchema.flattened([
                            BoutiqueQueries.ColumnSchema("id", as: Int.self, primaryKey: true),
                            BoutiqueQueries.ColumnSchema("startAt", as: Date.self),
                            BoutiqueQueries.ColumnSchema("timestamps", as: Timestamps.self),
                            BoutiqueQueries.ColumnSchema("endAt", as: Date.self, generated: .stored),
                        ])
                    }
                    init() {}
                }
                struct Columns: BoutiqueQueries.QueryExpression, Sendable {
                    typealias QueryValue = Event
                    let queryFragment: BoutiqueQueries.QueryFragment
                    init(id: some BoutiqueQueries.QueryExpression<Int>, startAt: some BoutiqueQueries.QueryExpression<Date>, timestamps: some BoutiqueQueries.QueryExpression<Timestamps>, endAt: some BoutiqueQueries.QueryExpression<Date>) {
                        self.queryFragment = [id.queryFragment, startAt.queryFragment, timestamps.queryFragment, endAt.queryFragment].joined(separator: ", ")
                    }
                }
                static var columns: TableColumns { TableColumns() }
                static var tableName: String { "event" }
                init(decoder: inout BoutiqueQueries.RowDecoder) throws(BoutiqueQueries.BoutiqueError) {
                    self.id = try decoder.decode(Int.self)
                    self.startAt = try decoder.decode(Date.self)
                    self.timestamps = try decoder.decode(Timestamps.self)
                    self.endAt = try decoder.decode(Date.self)
                }
                func encodeColumns(into encoder: inout BoutiqueQueries.RowEncoder) {
                    encoder.encode(self.id)
                    encoder.encode(self.startAt, as: Date.self)
                    encoder.encode(self.timestamps, as: Timestamps.self)
                }
                struct Draft: BoutiqueQueries.TableDraft {
                    typealias Root = Event
                    var id: Int?
                    var startAt: Date
                    var timestamps: Timestamps
                    init(id: Int? = nil, startAt: Date, timestamps: Timestamps) {
                        self.id = id
                        self.startAt = startAt
                        self.timestamps = timestamps
                    }
                    init(_ other: Event) {
                        self.id = other.id
                        self.startAt = other.startAt
                        self.timestamps = other.timestamps
                    }
                    func encodeColumns(into encoder: inout BoutiqueQueries.RowEncoder) {
                        encoder.encode(self.id)
                        encoder.encode(self.startAt, as: Date.self)
                        encoder.encode(self.timestamps, as: Timestamps.self)
                    }
                }
            }
            """
        )
    }

    /// A field whose optional type may be an optional group of columns: its handle comes from the same
    /// overloaded call (an `OptionalColumnGroup` for an optional `@Selection` struct), and left out of
    /// `Columns(…)` it is NULL in each of its columns.
    @Test func optionalGroupField() {
        assertExpansion(
            """
            @Table
            struct Parcel {
                let id: Int
                var shipping: Shipping?
            }
            """,
            expandedSource: """
            struct Parcel {
                let id: Int
                var shipping: Shipping?
            }

            nonisolated extension Parcel: BoutiqueQueries.Table, BoutiqueQueries.PrimaryKeyedTable {
                struct TableColumns: BoutiqueQueries.PrimaryKeyedTableDefinition {
                    typealias Root = Parcel
                    typealias PrimaryKey = Int
                    var id: BoutiqueQueries.TableColumn<Parcel, Int> { .init("id") }
                    let shipping = BoutiqueQueries.TableColumn<Parcel, Shipping?>.handle("shipping")
                    var primaryKey: BoutiqueQueries.TableColumn<Parcel, Int> { id }
                    static let allColumns: [BoutiqueQueries.ColumnSchema] = makeAllColumns()
                    private static func makeAllColumns() -> [BoutiqueQueries.ColumnSchema] {
                        BoutiqueQueries.ColumnSchema.flattened([
                            BoutiqueQueries.ColumnSchema("id", as: Int.self, primaryKey: true),
                            BoutiqueQueries.ColumnSchema("shipping", as: Shipping?.self),
                        ])
                    }
                    init() {}
                }
                struct Columns: BoutiqueQueries.QueryExpression, Sendable {
                    typealias QueryValue = Parcel
                    let queryFragment: BoutiqueQueries.QueryFragment
                    init(id: some BoutiqueQueries.QueryExpression<Int>, shipping: some BoutiqueQueries.QueryExpression<Shipping?> = BoutiqueQueries.SQLExpression<Shipping?>.nullColumns) {
                        self.queryFragment = [id.queryFragment, shipping.queryFragment].joined(separator: ", ")
                    }
                }
                static var columns: TableColumns { TableColumns() }
                static var tableName: String { "parcel" }
                init(decoder: inout BoutiqueQueries.RowDecoder) throws(BoutiqueQueries.BoutiqueError) {
                    self.id = try decoder.decode(Int.self)
                    self.shipping = try decoder.decode(Shipping?.self)
                }
                func encodeColumns(into encoder: inout BoutiqueQueries.RowEncoder) {
                    encoder.encode(self.id)
                    encoder.encode(self.shipping, as: Shipping?.self)
                }
                struct Draft: BoutiqueQueries.TableDraft {
                    typealias Root = Parcel
                    var id: Int?
                    var shipping: Shipping?
                    init(id: Int? = nil, shipping: Shipping? = nil) {
                        self.id = id
                        self.shipping = shipping
                    }
                    init(_ other: Parcel) {
                        self.id = other.id
                        self.shipping = other.shipping
                    }
                    func encodeColumns(into encoder: inout BoutiqueQueries.RowEncoder) {
                        encoder.encode(self.id)
                        encoder.encode(self.shipping, as: Shipping?.self)
                    }
                }
            }
            """
        )
    }
}
