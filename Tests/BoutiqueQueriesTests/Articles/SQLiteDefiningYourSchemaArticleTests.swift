import BoutiqueQueries
import BoutiqueSQLite
import Foundation
import Testing

/// The examples of StructuredQueries' SQLite "Defining your schema" article: a date stored as Unix
/// seconds and a UUID stored as 16 bytes, each compared with a Swift value through `#bind`, and the
/// default representations compared without it. Meter readings and sensors stand in for the data.
///
/// The JSONB section is left out: `JSONBRepresentation` needs SQLite 3.45 (see "Moving from
/// StructuredQueries").
@Suite("Article: SQLite defining your schema")
struct SQLiteDefiningYourSchemaArticleTests {
    @Table("reading")
    struct Reading: Equatable {
        let id: Int
        @Column(as: Date.UnixTimeRepresentation.self)
        var takenAt: Date
    }

    @Table("sensor")
    struct Sensor: Equatable {
        @Column(as: UUID.BytesRepresentation.self)
        let id: UUID
        var title = ""
    }

    /// The default representations: a date and a UUID that say nothing about their storage.
    @Table("plainSensor")
    struct PlainSensor: Equatable {
        let id: UUID
        var title = ""
        var installedAt: Date
    }

    let db: Connection
    init() throws {
        db = try Connection(path: ":memory:")
        try db.execute("""
            CREATE TABLE "reading" ("id" INTEGER PRIMARY KEY, "takenAt" INTEGER NOT NULL) STRICT;
            CREATE TABLE "sensor" ("id" BLOB PRIMARY KEY NOT NULL, "title" TEXT NOT NULL DEFAULT '') STRICT;
            CREATE TABLE "plainSensor" ("id" TEXT PRIMARY KEY NOT NULL, "title" TEXT NOT NULL DEFAULT '', "installedAt" REAL NOT NULL);
            """)
    }

    static let first = UUID(uuidString: "6BA7B810-9DAD-11D1-80B4-00C04FD430C8")!
    static let second = UUID(uuidString: "00000000-0000-4000-8000-000000000001")!

    @Test func aUnixTimeDateIsInsertedAsWholeSeconds() throws {
        let insert = Reading.insert {
            Reading.Draft(takenAt: Date(timeIntervalSince1970: 1_517_184_480.75))
        }
        #expect(insert.sql == #"INSERT INTO "reading" ("id", "takenAt") VALUES (?, ?)"#)
        #expect(insert.bindings == [.null, .integer(1_517_184_480)])
        try insert.execute(db)
        #expect(try #sql("SELECT typeof(takenAt) || ' ' || takenAt FROM reading", as: String.self).fetchOne(db) == "integer 1517184480")
        #expect(try Reading.all.fetchOne(db) == Reading(id: 1, takenAt: Date(timeIntervalSince1970: 1_517_184_480)))
    }

    @Test func aUnixTimeDateIsComparedThroughBind() throws {
        try Reading.insert {
            Reading.Draft(takenAt: Date(timeIntervalSince1970: 1_000))
            Reading.Draft(takenAt: Date(timeIntervalSince1970: 2_000))
        }.execute(db)
        let startDate = Date(timeIntervalSince1970: 1_500)
        let query = Reading.where { $0.takenAt > #bind(startDate) }
        #expect(query.sql.hasSuffix(#"FROM "reading" WHERE ("reading"."takenAt" > ?)"#))
        #expect(query.bindings == [.integer(1_500)])
        #expect(try query.fetchAll(db).map(\.id) == [2])
    }

    @Test func aBytesUUIDIsComparedThroughBind() throws {
        try Sensor.insert {
            Sensor(id: Self.first, title: "Porch")
            Sensor(id: Self.second, title: "Shed")
        }.execute(db)
        #expect(try #sql("SELECT typeof(id) || ' ' || length(id) FROM sensor LIMIT 1", as: String.self).fetchOne(db) == "blob 16")
        let sensor = Sensor(id: Self.first, title: "Porch")
        let others = Sensor.where { $0.id != #bind(sensor.id) }
        #expect(others.sql.hasSuffix(#"FROM "sensor" WHERE ("sensor"."id" <> ?)"#))
        #expect(others.bindings == [.blob(withUnsafeBytes(of: Self.first.uuid) { Array($0) })])
        #expect(try others.fetchAll(db) == [Sensor(id: Self.second, title: "Shed")])
    }

    @Test func theDefaultRepresentationsNeedNoBind() throws {
        let installed = Date(timeIntervalSince1970: 1_700_000_000)
        try PlainSensor.insert {
            PlainSensor(id: Self.first, title: "Porch", installedAt: installed)
            PlainSensor(id: Self.second, title: "Shed", installedAt: installed.addingTimeInterval(60))
        }.execute(db)
        let sensor = PlainSensor(id: Self.first, title: "Porch", installedAt: installed)
        let others = PlainSensor.where { $0.id != sensor.id }
        #expect(others.bindings == [.text("6ba7b810-9dad-11d1-80b4-00c04fd430c8")])
        #expect(try others.fetchAll(db).map(\.title) == ["Shed"])
        let later = PlainSensor.where { $0.installedAt > installed }
        #expect(try later.fetchAll(db).map(\.title) == ["Shed"])
    }
}
