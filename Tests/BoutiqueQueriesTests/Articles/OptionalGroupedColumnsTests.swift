import BoutiqueQueries
import BoutiqueSQLite
import Foundation
import Testing

/// An optional group of columns (`var shipping: Shipping?`, a `@Selection` struct), as StructuredQueries'
/// `OptionalColumnGroup`: the group's columns are nullable columns of the table, `nil` is NULL in all
/// of them, its fields read as optional columns, and the group compares as a row value.
@Suite("Optional groups of columns")
struct OptionalGroupedColumnsTests {
    @Selection
    struct Shipping: Equatable {
        var carrier: String
        var trackingCode: String?
    }

    @Table
    struct Parcel: Equatable {
        let id: Int
        var label: String
        var shipping: Shipping?
    }

    /// A group inside a group, the outer one optional.
    @Selection
    struct Delivery: Equatable {
        var shipping: Shipping
        var signedBy: String?
    }

    @Table
    struct Crate: Equatable {
        let id: Int
        var delivery: Delivery?
    }

    static let post = Shipping(carrier: "Post", trackingCode: nil)
    static let courier = Shipping(carrier: "Courier", trackingCode: "C-17")

    static func database() throws -> Connection {
        let db = try Connection(path: ":memory:")
        try db.execute(CreateTableStatement(Parcel.self).sql)
        return db
    }

    static func stocked() throws -> Connection {
        let db = try database()
        try Parcel.insert {
            Parcel(id: 1, label: "Books", shipping: nil)
            Parcel(id: 2, label: "Lamp", shipping: post)
            Parcel(id: 3, label: "Rug", shipping: courier)
        }.execute(db)
        return db
    }

    @Test func theGroupsColumnsAreNullableColumnsOfTheTable() {
        #expect(Parcel.TableColumns.allColumns.map(\.name) == ["id", "label", "carrier", "trackingCode"])
        #expect(Parcel.TableColumns.allColumns.map(\.isNullable) == [false, false, true, true])
        #expect(CreateTableStatement(Parcel.self).sql == #"CREATE TABLE "parcel" ("id" INTEGER PRIMARY KEY NOT NULL, "label" TEXT NOT NULL, "carrier" TEXT, "trackingCode" TEXT)"#)
    }

    @Test func nilIsWrittenAsNullInEachColumnAndReadBackAsNil() throws {
        let db = try Self.database()
        let insert = Parcel.insert {
            Parcel(id: 1, label: "Books", shipping: nil)
            Parcel.Draft(label: "Lamp", shipping: Self.post)
        }
        #expect(insert.sql == #"INSERT INTO "parcel" ("id", "label", "carrier", "trackingCode") VALUES (?, ?, ?, ?), (?, ?, ?, ?)"#)
        let bindings: [DatabaseValue] = [.integer(1), .text("Books"), .null, .null, .null, .text("Lamp"), .text("Post"), .null]
        #expect(insert.bindings == bindings)
        try insert.execute(db)
        #expect(try Parcel.order { $0.id }.fetchAll(db) == [
            Parcel(id: 1, label: "Books", shipping: nil), Parcel(id: 2, label: "Lamp", shipping: Self.post),
        ])
    }

    @Test func aGroupWhoseRequiredFieldAloneIsNullFailsToDecodeWithTheColumnNamed() throws {
        let db = try Self.database()
        try db.execute(#"INSERT INTO "parcel" VALUES (1, 'Odd', NULL, 'X-1')"#)
        let error = #expect(throws: BoutiqueError.self) { try Parcel.all.fetchAll(db) }
        #expect(error?.description.contains("carrier") == true)
    }

    @Test func theGroupSelectedAloneReadsOptionalValues() throws {
        let db = try Self.stocked()
        let query = Parcel.order { $0.id }.select(\.shipping)
        #expect(query.sql == #"SELECT "parcel"."carrier", "parcel"."trackingCode" FROM "parcel" ORDER BY "parcel"."id""#)
        #expect(try query.fetchAll(db) == [nil, Self.post, Self.courier])
        let pairs = try Parcel.order { $0.id }.select { ($0.label, $0.shipping) }.fetchAll(db)
        #expect(pairs.map(\.0) == ["Books", "Lamp", "Rug"])
        #expect(pairs.map(\.1) == [nil, Self.post, Self.courier])
    }

    @Test func theGroupsFieldsReadAsOptionalColumns() throws {
        let db = try Self.stocked()
        let carriers = Parcel.order { $0.id }.select { $0.shipping.carrier }
        #expect(carriers.sql == #"SELECT "parcel"."carrier" FROM "parcel" ORDER BY "parcel"."id""#)
        #expect(try carriers.fetchAll(db) == [nil, "Post", "Courier"])
        // A field that is optional already stays singly optional.
        let codes: [String?] = try Parcel.order { $0.id }.select { $0.shipping.trackingCode }.fetchAll(db)
        #expect(codes == [nil, nil, "C-17"])
        let byPost = Parcel.where { $0.shipping.carrier.eq("Post") }
        #expect(byPost.sql.hasSuffix(#"WHERE ("parcel"."carrier" = ?)"#))
        #expect(try byPost.fetchAll(db).map(\.id) == [2])
        #expect(try Parcel.where { $0.shipping.carrier.is(nil) }.fetchAll(db).map(\.id) == [1])
    }

    @Test func theGroupComparesAsARowValue() throws {
        let db = try Self.stocked()
        let absent = Parcel.where { $0.shipping.is(nil) }
        #expect(absent.sql.hasSuffix(#"WHERE (("parcel"."carrier", "parcel"."trackingCode") IS (?, ?))"#))
        #expect(absent.bindings == [.null, .null])
        #expect(try absent.fetchAll(db).map(\.id) == [1])
        #expect(try Parcel.where { $0.shipping.isNot(nil) }.order { $0.id }.fetchAll(db).map(\.id) == [2, 3])
        // `==` with an optional group is `IS`, so `nil` matches the absent group, as in Swift.
        let equal = Parcel.where { $0.shipping == nil }
        #expect(equal.sql.hasSuffix(#"WHERE (("parcel"."carrier", "parcel"."trackingCode") IS (?, ?))"#))
        #expect(try equal.fetchAll(db).map(\.id) == [1])
        #expect(try Parcel.where { $0.shipping != Self.post }.order { $0.id }.fetchAll(db).map(\.id) == [1, 3])
        // `eq` is `=`, as in StructuredQueries: a NULL on either side matches nothing.
        let same = Parcel.where { $0.shipping.eq(Self.courier) }
        #expect(same.sql.hasSuffix(#"WHERE (("parcel"."carrier", "parcel"."trackingCode") = (?, ?))"#))
        #expect(try same.fetchAll(db).map(\.id) == [3])
        #expect(try Parcel.where { $0.shipping.eq(Self.post) }.fetchAll(db).isEmpty)
    }

    @Test func aRowIsUpdatedFromAGroupToNilAndBack() throws {
        let db = try Self.stocked()
        let cleared = Parcel.update(Parcel(id: 3, label: "Rug", shipping: nil))
        #expect(cleared.sql == #"UPDATE "parcel" SET "label" = ?, "carrier" = ?, "trackingCode" = ? WHERE "parcel"."id" = ?"#)
        try cleared.execute(db)
        #expect(try Parcel.find(3).select(\.shipping).fetchOne(db) == .some(nil))
        try Parcel.upsert { Parcel(id: 1, label: "Books", shipping: Self.courier) }.execute(db)
        #expect(try Parcel.find(1).fetchOne(db) == Parcel(id: 1, label: "Books", shipping: Self.courier))
    }

    @Test func theGroupIsAssignedAsAWholeOrFieldByField() throws {
        let db = try Self.stocked()
        let clear = Parcel.update { $0.shipping = nil }.where { $0.id.eq(2) }
        #expect(clear.sql == #"UPDATE "parcel" SET "carrier" = ?, "trackingCode" = ? WHERE ("parcel"."id" = ?)"#)
        #expect(clear.bindings == [.null, .null, .integer(2)])
        try clear.execute(db)
        try Parcel.update { $0.shipping = Self.courier }.where { $0.id.eq(1) }.execute(db)
        let track = Parcel.update { $0.shipping.trackingCode = "R-9" }.where { $0.id.eq(3) }
        #expect(track.sql == #"UPDATE "parcel" SET "trackingCode" = ? WHERE ("parcel"."id" = ?)"#)
        try track.execute(db)
        #expect(try Parcel.order { $0.id }.select(\.shipping).fetchAll(db) == [
            Self.courier, nil, Shipping(carrier: "Courier", trackingCode: "R-9"),
        ])
    }

    @Test func aTablesColumnsLeaveTheOptionalGroupOutAsNull() throws {
        let db = try Self.stocked()
        let query = Parcel.order { $0.id }.select { Parcel.Columns(id: $0.id, label: $0.label) }
        #expect(query.sql == #"SELECT "parcel"."id", "parcel"."label", NULL, NULL FROM "parcel" ORDER BY "parcel"."id""#)
        #expect(try query.fetchAll(db).map(\.shipping) == [nil, nil, nil])
    }

    @Test func aGroupInsideAnOptionalGroupIsReadAndFiltered() throws {
        let db = try Connection(path: ":memory:")
        try db.execute(CreateTableStatement(Crate.self).sql)
        #expect(Crate.TableColumns.allColumns.map(\.name) == ["id", "carrier", "trackingCode", "signedBy"])
        let signed = Delivery(shipping: Self.courier, signedBy: "Ana")
        try Crate.insert {
            Crate(id: 1, delivery: nil)
            Crate(id: 2, delivery: signed)
        }.execute(db)
        #expect(try Crate.order { $0.id }.fetchAll(db).map(\.delivery) == [nil, signed])
        let query = Crate.where { $0.delivery.shipping.carrier.eq("Courier") }
        #expect(query.sql.hasSuffix(#"WHERE ("crate"."carrier" = ?)"#))
        #expect(try query.fetchAll(db).map(\.id) == [2])
    }
}
