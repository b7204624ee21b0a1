import Testing

/// What `@Selection` and `@Table` add to a `Codable` struct so that JSON paths can name its fields.
@Suite struct JSONPathMembersExpansionTests {
    /// A `Codable` selection: one member per stored property, under its Swift name (backticks
    /// dropped), with the declared type; array and dictionary fields are JSON columns.
    @Test func codableSelection() {
        assertExpansion(
            """
            @Selection
            struct Author: Codable {
                var name = ""
                var `default`: Bool
                var links: [Link] = []
                var scores: [String: Int]?
                var photo: [UInt8]
            }
            """,
            expandedSource: """
            struct Author: Codable {
                var name = ""
                var `default`: Bool
                var links: [Link] = []
                var scores: [String: Int]?
                var photo: [UInt8]
            }

            nonisolated extension Author: BoutiqueQueries.QuerySelection {
                struct TableColumns: BoutiqueQueries.TableDefinition {
                    typealias Root = Author
                    var name: BoutiqueQueries.TableColumn<Author, String> { .init("name") }
                    var `default`: BoutiqueQueries.TableColumn<Author, Bool> { .init("default") }
                    var links: BoutiqueQueries.TableColumn<Author, BoutiqueQueries.JSONRepresentation<[Link]>> { .init("links") }
                    var scores: BoutiqueQueries.TableColumn<Author, BoutiqueQueries.JSONRepresentation<[String: Int]>?> { .init("scores") }
                    var photo: BoutiqueQueries.TableColumn<Author, [UInt8]> { .init("photo") }
                    static let allColumns: [BoutiqueQueries.ColumnSchema] = makeAllColumns()
                    private static func makeAllColumns() -> [BoutiqueQueries.ColumnSchema] {
                        BoutiqueQueries.ColumnSchema.flattened([
                            BoutiqueQueries.ColumnSchema("name", as: String.self),
                            BoutiqueQueries.ColumnSchema("default", as: Bool.self),
                            BoutiqueQueries.ColumnSchema("links", as: BoutiqueQueries.JSONRepresentation<[Link]>.self),
                            BoutiqueQueries.ColumnSchema("scores", as: BoutiqueQueries.JSONRepresentation<[String: Int]>?.self),
                            BoutiqueQueries.ColumnSchema("photo", as: [UInt8].self),
                        ])
                    }
                    init() {}
                }
                struct Columns: BoutiqueQueries.QueryExpression, Sendable {
                    typealias QueryValue = Author
                    let queryFragment: BoutiqueQueries.QueryFragment
                    init(name: some BoutiqueQueries.QueryExpression<String> = BoutiqueQueries.SQLExpression<String>(bound: ""), `default`: some BoutiqueQueries.QueryExpression<Bool>, links: some BoutiqueQueries.QueryExpression<BoutiqueQueries.JSONRepresentation<[Link]>> = BoutiqueQueries.SQLExpression<BoutiqueQueries.JSONRepresentation<[Link]>>(bound: []), scores: some BoutiqueQueries.QueryExpression<BoutiqueQueries.JSONRepresentation<[String: Int]>?> = BoutiqueQueries.SQLExpression<BoutiqueQueries.JSONRepresentation<[String: Int]>?>(bound: nil), photo: some BoutiqueQueries.QueryExpression<[UInt8]>) {
                        self.queryFragment = [name.queryFragment, `default`.queryFragment, links.queryFragment, scores.queryFragment, photo.queryFragment].joined(separator: ", ")
                    }
                }
                static var columns: TableColumns { TableColumns() }
                static var tableName: String { "author" }
                init(decoder: inout BoutiqueQueries.RowDecoder) throws(BoutiqueQueries.BoutiqueError) {
                    self.name = try decoder.decode(String.self)
                    self.`default` = try decoder.decode(Bool.self)
                    self.links = try decoder.decode(BoutiqueQueries.JSONRepresentation<[Link]>.self)
                    self.scores = try decoder.decode(BoutiqueQueries.JSONRepresentation<[String: Int]>?.self)
                    self.photo = try decoder.decode([UInt8].self)
                }
                func encodeColumns(into encoder: inout BoutiqueQueries.RowEncoder) {
                    encoder.encode(self.name)
                    encoder.encode(self.`default`)
                    encoder.encode(self.links, as: BoutiqueQueries.JSONRepresentation<[Link]>.self)
                    encoder.encode(self.scores, as: BoutiqueQueries.JSONRepresentation<[String: Int]>?.self)
                    encoder.encode(self.photo, as: [UInt8].self)
                }
            }

            nonisolated extension Author: BoutiqueQueries.JSONPathObject {
                struct JSONPathMembers: Sendable {
                    var name: BoutiqueQueries.JSONPathMember<String> { .init("name") }
                    var `default`: BoutiqueQueries.JSONPathMember<Bool> { .init("default") }
                    var links: BoutiqueQueries.JSONPathMember<[Link]> { .init("links") }
                    var scores: BoutiqueQueries.JSONPathMember<[String: Int]?> { .init("scores") }
                    var photo: BoutiqueQueries.JSONPathMember<[UInt8]> { .init("photo") }
                }
                static var jsonPathMembers: JSONPathMembers { JSONPathMembers() }
                typealias JSONPathWritten = BoutiqueQueries.JSONRepresentation<Author>
            }
            """
        )
    }

    /// A `Codable` table: members under the Swift names `Codable` writes, not the SQL names, and
    /// its array columns keep the representation they declare (a table's `[String]` is no JSON
    /// column unless it says so).
    @Test func codableTable() {
        let result = MacroExpansionResult(
            expanding: """
            @Table
            public struct Photo: Codable {
                let id: Int
                @Column("taken_at") var takenAt: Date
                @Column(as: [String].JSONRepresentation.self) var tags: [String]
            }
            """,
            macros: boutiqueMacros, fixItIndex: 0)
        #expect(result.expandedSource.hasSuffix("""
            nonisolated extension Photo: BoutiqueQueries.JSONPathObject {
                public struct JSONPathMembers: Sendable {
                    public var id: BoutiqueQueries.JSONPathMember<Int> { .init("id") }
                    public var takenAt: BoutiqueQueries.JSONPathMember<Date> { .init("takenAt") }
                    public var tags: BoutiqueQueries.JSONPathMember<[String]> { .init("tags") }
                }
                public static var jsonPathMembers: JSONPathMembers { JSONPathMembers() }
                public typealias JSONPathWritten = BoutiqueQueries.JSONRepresentation<Photo>
            }
            """))
        #expect(result.expandedSource.contains("try decoder.decode([String].JSONRepresentation.self)"))
    }

    /// A struct that is not declared `Codable` gets no members: nothing names its fields in JSON.
    @Test func notCodable() {
        assertExpansion(
            """
            @Selection
            struct Count: Sendable, Equatable {
                let value: Int
            }
            """,
            expandedSource: """
            struct Count: Sendable, Equatable {
                let value: Int
            }

            nonisolated extension Count: BoutiqueQueries.QuerySelection {
                struct TableColumns: BoutiqueQueries.TableDefinition {
                    typealias Root = Count
                    var value: BoutiqueQueries.TableColumn<Count, Int> { .init("value") }
                    static let allColumns: [BoutiqueQueries.ColumnSchema] = makeAllColumns()
                    private static func makeAllColumns() -> [BoutiqueQueries.ColumnSchema] {
                        BoutiqueQueries.ColumnSchema.flattened([
                            BoutiqueQueries.ColumnSchema("value", as: Int.self),
                        ])
                    }
                    init() {}
                }
                struct Columns: BoutiqueQueries.QueryExpression, Sendable {
                    typealias QueryValue = Count
                    let queryFragment: BoutiqueQueries.QueryFragment
                    init(value: some BoutiqueQueries.QueryExpression<Int>) {
                        self.queryFragment = [value.queryFragment].joined(separator: ", ")
                    }
                }
                static var columns: TableColumns { TableColumns() }
                static var tableName: String { "count" }
                init(decoder: inout BoutiqueQueries.RowDecoder) throws(BoutiqueQueries.BoutiqueError) {
                    self.value = try decoder.decode(Int.self)
                }
                func encodeColumns(into encoder: inout BoutiqueQueries.RowEncoder) {
                    encoder.encode(self.value)
                }
            }
            """
        )
    }
}
