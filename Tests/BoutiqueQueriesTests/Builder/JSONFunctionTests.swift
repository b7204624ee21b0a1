import BoutiqueQueries
import BoutiqueSQLite
import Foundation
import Testing

/// A talk with its tags stored as a JSON array.
@Table @BoutiqueTable
struct Talk: Sendable, Equatable, Codable {
    let id: Int
    var title: String
    var track: Int
    @Column(as: [String].JSONRepresentation.self) var tags: [String] = []
    @Column(as: JSONRepresentation<[String]>.self) var speakers: [String] = []
    var room: String?
    @Column(as: [String].JSONRepresentation.self) var links: [String]?
}

private func makeTalksDatabase() throws -> Connection {
    let db = try Connection(path: ":memory:")
    try Talk.createTable().execute(db)
    try Talk.insert([
        Talk(id: 1, title: "Queries", track: 1, tags: ["sql", "swift"], speakers: ["Ann"], room: "A", links: ["a", "b"]),
        Talk(id: 2, title: "Sync", track: 1, tags: ["sync"], speakers: ["Bo", "Cy"], room: nil, links: nil),
        Talk(id: 3, title: "Macros", track: 2, tags: [], speakers: [], room: "A", links: []),
    ]).execute(db)
    return db
}

/// `json_group_array` and `json_array_length`, and `[T].JSONRepresentation` columns.
@Suite("JSON functions")
struct JSONFunctionTests {
    let db: Connection
    init() throws { db = try makeTalksDatabase() }

    @Test func shortSpellingIsTheSameRepresentation() throws {
        #expect([String].JSONRepresentation.self == JSONRepresentation<[String]>.self)
        #expect([String: Int].JSONRepresentation.self == JSONRepresentation<[String: Int]>.self)
        let talk = try #require(try Talk.find(2).fetchOne(db))
        #expect(talk.tags == ["sync"] && talk.speakers == ["Bo", "Cy"])
        #expect(Talk.find(2).select(\.tags).sql.hasPrefix(#"SELECT "talk"."tags" FROM"#))
        #expect(Talk.insert([talk]).bindings.contains(.text(#"["sync"]"#)))
    }

    @Test func groupArrayOfValues() throws {
        let query = Talk.all.group { $0.track }.order { $0.track }.select { ($0.track, $0.title.jsonGroupArray()) }
        #expect(query.sql.hasPrefix(#"SELECT "talk"."track", json_group_array("talk"."title") FROM"#))
        let rows = try query.fetchAll(db)
        #expect(rows.map(\.0) == [1, 2])
        #expect(rows.map { $0.1.sorted() } == [["Queries", "Sync"], ["Macros"]])
    }

    @Test func groupArrayOptions() throws {
        let query = Talk.all.select {
            ($0.room.jsonGroupArray(), $0.room.jsonGroupArray(distinct: true), $0.id.jsonGroupArray(filter: $0.track == 1))
        }
        #expect(query.sql.hasPrefix(
            #"SELECT json_group_array("talk"."room"), json_group_array(DISTINCT "talk"."room"), json_group_array("talk"."id") FILTER (WHERE ("talk"."track" = ?)) FROM"#))
        let row = try #require(try query.fetchOne(db))
        #expect(row.0.count == 3 && row.0.filter { $0 == nil }.count == 1)
        #expect(Set(row.1) == [nil, "A"] && row.1.count == 2)
        #expect(row.2.sorted() == [1, 2])
    }

    @Test func groupArrayOfJSONColumnsHoldsTheValues() throws {
        let query = Talk.all.select { $0.tags.jsonGroupArray() }
        #expect(query.sql.hasPrefix(#"SELECT json_group_array(json("talk"."tags")) FROM"#))
        let arrays = try #require(try query.fetchOne(db))
        #expect(Set(arrays) == [["sql", "swift"], ["sync"], []])
    }

    @Test func orderedGroupArrayNeedsSQLite344() throws {
        let query = Talk.all.select { $0.title.jsonGroupArray(order: $0.title) }
        #expect(query.sql.hasPrefix(#"SELECT json_group_array("talk"."title" ORDER BY "talk"."title") FROM"#))
        if try sqliteSupportsOrderedAggregates(db) {
            #expect(try query.fetchOne(db) == ["Macros", "Queries", "Sync"])
        } else {
            #expect { try query.fetchOne(db) } throws: { "\($0)".contains(#"near "ORDER": syntax error"#) }
        }
    }

    @Test func arrayLength() throws {
        let query = Talk.order { $0.id }.select { ($0.tags.jsonArrayLength(), $0.speakers.jsonArrayLength()) }
        #expect(query.sql.hasPrefix(#"SELECT json_array_length("talk"."tags"), json_array_length("talk"."speakers") FROM"#))
        let rows = try query.fetchAll(db)
        #expect(rows.map(\.0) == [2, 1, 0])
        #expect(rows.map(\.1) == [1, 2, 0])
        #expect(try Talk.where { $0.tags.jsonArrayLength() > 1 }.select(\.title).fetchAll(db) == ["Queries"])
    }

    @Test func optionalJSONColumns() throws {
        let lengths = Talk.order { $0.id }.select { $0.links.jsonArrayLength() }
        #expect(lengths.sql.hasPrefix(#"SELECT json_array_length("talk"."links") FROM"#))
        let counts: [Int?] = try lengths.fetchAll(db)
        #expect(counts == [2, nil, 0])
        let arrays = Talk.all.select { $0.links.jsonGroupArray() }
        #expect(arrays.sql.hasPrefix(#"SELECT json_group_array(json("talk"."links")) FROM"#))
        let collected: [[String]?] = try #require(try arrays.fetchOne(db))
        #expect(collected.count == 3 && collected.contains(nil) && collected.contains(["a", "b"]) && collected.contains([]))
    }
}
