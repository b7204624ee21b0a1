import BoutiqueQueries
import BoutiqueSQLite
import Foundation
import Testing

/// The representations of StructuredQueries' schema article, in its spelling: upper-case UUIDs,
/// Julian-day dates, a raw-value enum stored without conforming to `QueryBindable`, and `#bind` for a
/// value whose type does not say how it is stored. Each test reads back what SQLite holds.
@Suite("Defining your schema, as the StructuredQueries article writes it")
struct DefiningYourSchemaArticleTests {
    enum Urgency: Int {
        case someday = 1, soon, now
    }

    @Table("parcel")
    struct Parcel: Equatable {
        @Column(as: UUID.UppercasedRepresentation.self) let id: UUID
        var label: String
        @Column(as: Date.JulianDayRepresentation.self) var shippedAt: Date
        @Column(as: Urgency.RawRepresentation.self) var urgency: Urgency
        @Column(as: [String].JSONRepresentation.self) var stickers: [String]
    }

    let db: Connection
    init() throws {
        db = try Connection(path: ":memory:")
        try db.execute("""
            CREATE TABLE parcel (id TEXT PRIMARY KEY, label TEXT NOT NULL, shippedAt REAL NOT NULL,
                urgency INTEGER NOT NULL, stickers TEXT NOT NULL)
            """)
    }

    static let shippedAt = Date(timeIntervalSince1970: 1_800_000_000)
    static let parcel = Parcel(
        id: UUID(uuidString: "0f8fad5b-d9cb-469f-a165-70867728950e")!, label: "Books",
        shippedAt: shippedAt, urgency: .soon, stickers: ["fragile"])

    @Test func eachColumnIsStoredAsItsRepresentationSays() throws {
        try Parcel.insert { Self.parcel }.execute(db)
        #expect(try #sql("SELECT id FROM parcel", as: String.self).fetchOne(db) == "0F8FAD5B-D9CB-469F-A165-70867728950E")
        // 1 800 000 000 s after 1970 is 20 833.33… days after the Julian day 2 440 587.5.
        let julianDay = try #sql("SELECT shippedAt FROM parcel", as: Double.self).fetchOne(db) ?? 0
        #expect(abs(julianDay - (2_440_587.5 + 1_800_000_000.0 / 86_400)) < 1e-6)
        #expect(try #sql("SELECT urgency FROM parcel", as: Int.self).fetchOne(db) == 2)
        #expect(try #sql("SELECT stickers FROM parcel", as: String.self).fetchOne(db) == #"["fragile"]"#)
        let read = try Parcel.all.fetchOne(db)
        #expect(read?.id == Self.parcel.id)
        #expect(abs((read?.shippedAt.timeIntervalSince1970 ?? 0) - 1_800_000_000) < 0.001)
        #expect(read?.urgency == .soon)
    }

    @Test func sqliteReadsAJulianDayAsADate() throws {
        try Parcel.insert { Self.parcel }.execute(db)
        let day = try Parcel.select { $0.shippedAt.strftime("%Y-%m-%d") }.fetchOne(db)
        #expect(day == "2027-01-15")
        let nextDay = try Parcel.select { $0.shippedAt(.days(1)) }.fetchOne(db)
        #expect(abs((nextDay?.timeIntervalSince1970 ?? 0) - (1_800_000_000 + 86_400)) < 0.001)
    }

    @Test func aRawValueEnumComparesByItsRawValue() throws {
        try Parcel.insert { Self.parcel }.execute(db)
        let query = Parcel.where { $0.urgency == Urgency.soon }.select(\.label)
        #expect(query.sql == #"SELECT "parcel"."label" FROM "parcel" WHERE ("parcel"."urgency" = ?)"#)
        #expect(query.bindings == [.integer(2)])
        #expect(try query.fetchAll(db) == ["Books"])
    }

    @Test func bindGivesAValueItsRepresentation() throws {
        try Parcel.insert { Self.parcel }.execute(db)
        let update = Parcel.update { $0.stickers = #bind(["fragile", "this side up"]) }
        #expect(update.bindings == [.text(#"["fragile","this side up"]"#)])
        try update.execute(db)
        let byID = Parcel.where { $0.id.eq(#bind(Self.parcel.id, as: UUID.UppercasedRepresentation.self)) }
        #expect(byID.bindings == [.text("0F8FAD5B-D9CB-469F-A165-70867728950E")])
        #expect(try byID.fetchOne(db)?.stickers == ["fragile", "this side up"])
    }
}
