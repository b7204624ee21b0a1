import BoutiqueQueries
import BoutiqueSQLite
import Foundation
import Testing

/// A shelf of parcels, for rows read back from JSON objects.
@Table @BoutiqueTable
struct Shelf: Sendable, Equatable, Codable {
    let id: Int
    var name: String
}

enum ParcelKind: String, QueryBindable, Codable { case letter, box }

/// A parcel with a column of every stored form: text, integers, a `Bool`, a `Double`, dates stored
/// three ways, JSON columns (one holding dates), an enum and optionals.
@Table @BoutiqueTable
struct Parcel: Sendable, Equatable, Codable {
    let id: Int
    var shelfID: Int
    var label: String
    var isFragile: Bool
    var weight: Double
    var sentAt: Date
    @Column(as: Date.ISO8601Representation.self) var arrivesAt: Date
    @Column(as: Date.UnixTimeRepresentation.self) var loggedAt: Date
    @Column(as: [String].JSONRepresentation.self) var tags: [String]
    @Column(as: [Date].JSONRepresentation.self) var scans: [Date]
    var kind: ParcelKind
    var note: String?
    var insuredFor: Double?
    var isSigned: Bool?
}

/// A shelf with its parcels, read in one row.
@Selection
struct ShelfWithParcels {
    let shelf: Shelf
    @Column(as: [Parcel].JSONRepresentation.self) let parcels: [Parcel]
}

/// `jsonObject()` and a table's `jsonGroupArray()`: rows read back through `Codable` as the values the
/// columns hold, whatever form each is stored in.
@Suite("JSON objects of rows")
struct JSONObjectTests {
    let db: Connection
    let parcels: [Parcel]

    init() throws {
        db = try Connection(path: ":memory:")
        try Shelf.createTable().execute(db)
        try Parcel.createTable().execute(db)
        try Shelf.insert([Shelf(id: 1, name: "Top"), Shelf(id: 2, name: "Empty")]).execute(db)
        // Values that do not survive SQLite's own 15-digit JSON numbers, or 0 and 1 read as Bool.
        let sent = Date(timeIntervalSince1970: 1_764_930_000.123456789)
        parcels = [
            Parcel(
                id: 1, shelfID: 1, label: "Books \"and\" 'maps'", isFragile: true, weight: 0.1 + 0.2, sentAt: sent,
                arrivesAt: Date(timeIntervalSince1970: 1_765_000_000.250), loggedAt: Date(timeIntervalSince1970: 1_764_930_001),
                tags: ["paper", "é🙂"], scans: [sent, sent.addingTimeInterval(0.000_001)], kind: .box,
                note: nil, insuredFor: 1e-300, isSigned: false),
            Parcel(
                id: 2, shelfID: 1, label: "", isFragile: false, weight: -2.5, sentAt: Date(timeIntervalSince1970: -86_400.5),
                arrivesAt: Date(timeIntervalSince1970: 0), loggedAt: Date(timeIntervalSince1970: -5),
                tags: [], scans: [], kind: .letter, note: "second", insuredFor: nil, isSigned: nil),
        ]
        try Parcel.insert(parcels).execute(db)
    }

    @Test func aRowReadsBackAsTheModel() throws {
        let query = Parcel.order { $0.id }.select { $0.jsonObject() }
        #expect(query.sql.hasPrefix(
            #"SELECT json_object('id', "parcel"."id", 'shelfID', "parcel"."shelfID", 'label', "parcel"."label", 'isFragile', json(CASE WHEN "parcel"."isFragile" IS NULL THEN NULL WHEN "parcel"."isFragile" THEN 'true' ELSE 'false' END), 'weight', json(CASE WHEN "parcel"."weight" IS NULL THEN NULL ELSE printf('%!.17g', "parcel"."weight") END), 'sentAt', CASE WHEN typeof("parcel"."sentAt") = 'text' THEN "parcel"."sentAt" ELSE json(CASE WHEN "parcel"."sentAt" IS NULL THEN NULL ELSE printf('%!.17g', "parcel"."sentAt" - 978307200.0) END) END, 'arrivesAt', "parcel"."arrivesAt", 'loggedAt', CASE WHEN typeof("parcel"."loggedAt") = 'text' THEN "parcel"."loggedAt" ELSE json(CASE WHEN "parcel"."loggedAt" IS NULL THEN NULL ELSE printf('%!.17g', "parcel"."loggedAt" - 978307200.0) END) END, 'tags', json("parcel"."tags"), 'scans', json("parcel"."scans"), 'kind', "parcel"."kind""#))
        #expect(query.bindings.isEmpty)
        let read = try query.fetchAll(db)
        #expect(read == parcels)
        // The same rows as the columns read them: nothing is off by a digit or an epoch.
        #expect(read == (try Parcel.order { $0.id }.fetchAll(db)))
    }

    @Test func aGroupReadsAsAnArrayOfTheModel() throws {
        let query = Shelf
            .join(Parcel.all) { $0.id == $1.shelfID }
            .group { shelf, _ in shelf.id }
            .select { ShelfWithParcels.Columns(shelf: $0, parcels: $1.jsonGroupArray()) }
        #expect(query.sql.contains(#"json_group_array(json_object('id', "parcel"."id", "#))
        #expect(query.sql.contains(#") FILTER (WHERE ("parcel"."id" IS NOT NULL))"#))
        let rows = try query.fetchAll(db)
        #expect(rows.count == 1)
        #expect(rows.first?.shelf == Shelf(id: 1, name: "Top"))
        #expect(rows.first?.parcels.sorted { $0.id < $1.id } == parcels)
    }

    @Test func aLeftJoinsMissingRowIsAnEmptyArray() throws {
        let query = Shelf
            .leftJoin(Parcel.all) { $0.id == $1.shelfID }
            .group { shelf, _ in shelf.id }
            .order { shelf, _ in shelf.id }
            .select { ($0.name, $1.jsonGroupArray(filter: $1.isFragile)) }
        let rows = try query.fetchAll(db)
        #expect(rows.map(\.0) == ["Top", "Empty"])
        #expect(rows.map(\.1) == [[parcels[0]], []])
        #expect(query.sql.contains(#"FILTER (WHERE (("parcel"."id" IS NOT NULL) AND "parcel"."isFragile"))"#))
    }

    @Test func datesKeptAsTextUnsignedNumbersAndUUIDsReadBack() throws {
        try Ticket.createTable().execute(db)
        let tickets = [
            Ticket(id: UUID(), bytesID: UUID(), serial: .max, issuedAt: Date(timeIntervalSince1970: 5)),
            Ticket(id: UUID(), bytesID: UUID(), serial: 7, issuedAt: Date(timeIntervalSince1970: -1.25)),
        ]
        try Ticket.insert(tickets).execute(db)
        // A `Date` column may hold ISO-8601 text, which it reads too: it must not be taken for a number.
        let texted = Ticket(id: UUID(), bytesID: UUID(), serial: 1, issuedAt: Date(timeIntervalSince1970: 1_764_440_400))
        try Ticket.insert([texted]).execute(db)
        try db.execute("UPDATE ticket SET issuedAt = '2025-11-29 18:20:00' WHERE serial = 1")
        let fromJSON = try Ticket.order { $0.serial }.select { $0.jsonObject() }.fetchAll(db)
        let fromColumns = try Ticket.order { $0.serial }.fetchAll(db)
        #expect(fromJSON == fromColumns)
        #expect(Set(fromJSON.map(\.id)) == Set((tickets + [texted]).map(\.id)))
        // Stored with its bit pattern, the largest serial sorts first.
        #expect(fromJSON.map(\.serial) == [.max, 1, 7])
        #expect(fromJSON[1].issuedAt == texted.issuedAt)
    }

    @Test func aBlobColumnFailsTheStatement() throws {
        try db.execute("CREATE TABLE stamp (id INTEGER PRIMARY KEY, bytes BLOB NOT NULL)")
        try db.execute("INSERT INTO stamp VALUES (1, x'00ff')")
        #expect {
            try Stamp.select { $0.jsonObject() }.fetchAll(db)
        } throws: { error in
            "\(error)".contains("JSON cannot hold BLOB values")
        }
    }
}

/// A table with a blob column, which JSON cannot hold.
@Table private struct Stamp: Codable {
    let id: Int
    var bytes: [UInt8]
}

/// A table with UUID keys stored as text and as bytes, an unsigned serial and a date.
@Table @BoutiqueTable
private struct Ticket: Equatable, Codable {
    let id: UUID
    @Column(as: UUID.BytesRepresentation.self) var bytesID: UUID
    var serial: UInt64
    var issuedAt: Date
}

