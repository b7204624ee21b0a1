import BoutiqueQueries
import BoutiqueSQLite
import Foundation
import Testing

/// The examples of StructuredQueries' SQLite "JSON" article, over shops that each hold their owner as
/// one JSON document: values extracted by key path, `json_each` as a subquery, a scalar subquery and
/// a join, an array of text and a dictionary iterated, documents edited in place, and rows gathered
/// into arrays. Each test shows the SQL and the rows.
///
/// The document's column is declared `JSONRepresentation<Owner>` where the article writes
/// `Owner.JSONRepresentation` (that short name is on arrays and dictionaries only here), and the JSONB
/// section is left out: SQLite reads JSONB from 3.45 on (see "Moving from StructuredQueries").
@Suite("Article: JSON")
struct JSONArticleTests {
    @Selection
    struct Owner: Codable, Equatable {
        var name = ""
        var isVerified = false
        var links: [Site] = []
        var pastLinks: [Site] = []
        var favoriteNumbers: [Int] = []
    }

    @Selection
    struct Site: Codable, Equatable {
        var homepage = ""
    }

    @Table("shop")
    struct Shop: Equatable {
        let id: Int
        @Column(as: JSONRepresentation<Owner>.self)
        var owner: Owner
        @Column(as: JSONRepresentation<Owner>.self)
        var formerOwner: Owner?
        @Column(as: [String].JSONRepresentation.self)
        var tags: [String] = []
        @Column(as: [String: Int].JSONRepresentation.self)
        var visitsByAirport: [String: Int] = [:]
    }

    @Table("item")
    struct Item: Codable, Equatable {
        let id: Int
        var title = ""
        var shopID: Int
    }

    @Selection
    struct ShopRow: Equatable {
        let shop: Shop
        @Column(as: [Item].JSONRepresentation.self)
        let items: [Item]
    }

    static let mira = Owner(
        name: "Mira", isVerified: true,
        links: [Site(homepage: "https://mira.example/shop"), Site(homepage: "https://pointfree.co/mira")],
        pastLinks: [Site(homepage: "https://old.example")], favoriteNumbers: [3, 4, 5])
    static let tom = Owner(name: "Tom", links: [Site(homepage: "https://tom.example")], favoriteNumbers: [])

    let db: Connection
    init() throws {
        db = try Connection(path: ":memory:")
        try db.execute("""
            CREATE TABLE "shop" ("id" INTEGER PRIMARY KEY, "owner" TEXT NOT NULL, "formerOwner" TEXT,
                "tags" TEXT NOT NULL DEFAULT '[]', "visitsByAirport" TEXT NOT NULL DEFAULT '{}') STRICT;
            CREATE TABLE "item" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL DEFAULT '', "shopID" INTEGER NOT NULL);
            """)
        try Shop.insert {
            Shop(id: 1, owner: Self.mira, formerOwner: Self.tom, tags: ["urgent", "books"], visitsByAirport: ["JFK": 3, "LHR": 1])
            Shop(id: 2, owner: Self.tom, formerOwner: nil, tags: ["toys"], visitsByAirport: ["CDG": 2])
        }.execute(db)
        try Item.insert {
            Item(id: 1, title: "Atlas", shopID: 1)
            Item(id: 2, title: "Bookmark", shopID: 1)
        }.execute(db)
    }

    @Test func extractAValueByKeyPath() throws {
        let query = Shop.select {
            $0.owner.jsonExtract(\.name)
        }
        #expect(query.sql == #"SELECT json_extract("shop"."owner", '$."name"') FROM "shop""#)
        #expect(try query.fetchAll(db) == ["Mira", "Tom"])
    }

    @Test func extractThroughAnArrayElement() throws {
        let query = Shop.select {
            $0.owner.jsonExtract(
                \.links[0].homepage
            )
        }
        #expect(query.sql == #"SELECT json_extract("shop"."owner", '$."links"[0]."homepage"') FROM "shop""#)
        #expect(try query.fetchAll(db) == ["https://mira.example/shop", "https://tom.example"])
    }

    @Test func anExtractedValueFilters() throws {
        let query = Shop.where {
            $0.owner.jsonExtract(\.name)
                .eq("Tom")
        }
        #expect(query.sql.hasSuffix(#"FROM "shop" WHERE (json_extract("shop"."owner", '$."name"') = ?)"#))
        #expect(query.bindings == [.text("Tom")])
        #expect(try query.fetchAll(db).map(\.id) == [2])
    }

    @Test func theLengthOfAnArrayInTheDocument() throws {
        let query = Shop.select {
            $0.owner.jsonArrayLength(\.links)
        }
        #expect(query.sql == #"SELECT json_array_length("shop"."owner", '$."links"') FROM "shop""#)
        #expect(try query.fetchAll(db) == [2, 1])
    }

    @Test func jsonEachAsAnExistsSubquery() throws {
        let query = Shop.where {
            $0.owner.jsonEach(\.links)
                .where {
                    $0.value.jsonExtract(\.homepage)
                        .like("%pointfree.co%")
                }
                .exists()
        }
        #expect(query.sql.hasSuffix(#"FROM "shop" WHERE (EXISTS (SELECT "json_each"."key", "json_each"."value" FROM json_each("shop"."owner", '$."links"') WHERE (json_extract("json_each"."value", '$."homepage"') LIKE ?)))"#))
        #expect(try query.fetchAll(db).map(\.id) == [1])
    }

    @Test func jsonEachAsAScalarSubquery() throws {
        // The article selects `$0.favoriteNumbers.jsonEach()` beside the id without a comma; its SQL
        // reads the numbers from the document's path, which is what is written here.
        let query = Shop.select {
            (
                $0.id,
                $0.owner.jsonEach(\.favoriteNumbers)
                    .select { $0.value.sum() }
            )
        }
        #expect(query.sql == #"SELECT "shop"."id", (SELECT sum("json_each"."value") FROM json_each("shop"."owner", '$."favoriteNumbers"')) FROM "shop""#)
        let rows = try query.fetchAll(db)
        #expect(rows.map(\.0) == [1, 2])
        #expect(rows.map(\.1) == [12, nil])
    }

    @Test func aTableJoinedToJSONEach() throws {
        let query = Shop
            .join(Shop.columns.owner.jsonEach(\.links)) { _, _ in true }
            .select {
                (
                    $0.owner.jsonExtract(\.name),
                    $1.value.jsonExtract(\.homepage)
                )
            }
        #expect(query.sql == #"SELECT json_extract("shop"."owner", '$."name"'), json_extract("json_each"."value", '$."homepage"') FROM "shop" JOIN json_each("shop"."owner", '$."links"') ON ?"#)
        let rows = try query.fetchAll(db)
        #expect(rows.map(\.0) == ["Mira", "Mira", "Tom"])
        #expect(rows.map(\.1) == ["https://mira.example/shop", "https://pointfree.co/mira", "https://tom.example"])
    }

    @Test func anArrayOfTextComparesItsElements() throws {
        let query = Shop.where {
            $0.tags.jsonEach()
                .where { $0.value.eq("urgent") }
                .exists()
        }
        #expect(query.sql.hasSuffix(#"WHERE (EXISTS (SELECT "json_each"."key", "json_each"."value" FROM json_each("shop"."tags") WHERE ("json_each"."value" = ?)))"#))
        #expect(try query.fetchAll(db).map(\.id) == [1])
    }

    @Test func aDictionaryIsIteratedByKeyAndAnOptionalNullIsEmpty() throws {
        let byKey = Shop.where { $0.visitsByAirport.jsonEach().where { $0.key.eq("JFK") }.exists() }
        #expect(byKey.sql.contains(#"FROM json_each("shop"."visitsByAirport") WHERE ("json_each"."key" = ?)"#))
        #expect(try byKey.fetchAll(db).map(\.id) == [1])

        // The second shop has no former owner: its NULL document has no elements.
        let formerLinks = Shop.order { $0.id }.select { ($0.id, $0.formerOwner.jsonEach(\.links).select { $0.key.count() }) }
        let rows = try formerLinks.fetchAll(db)
        #expect(rows.map(\.1) == [1, 0])
    }

    @Test func setAFieldInPlace() throws {
        let update = Shop.update {
            $0.owner = $0.owner
                .jsonSet(\.name, "Mira, Esq.")
        }
        #expect(update.sql == #"UPDATE "shop" SET "owner" = json_set("owner", '$."name"', ?)"#)
        try update.execute(db)
        let owners = try Shop.order { $0.id }.select(\.owner).fetchAll(db)
        #expect(owners.map(\.name) == ["Mira, Esq.", "Mira, Esq."])
        #expect(owners[0].links == Self.mira.links && owners[1].links == Self.tom.links)
    }

    @Test func consecutiveSetsAreOneCall() throws {
        let update = Shop.where { $0.id.eq(2) }.update {
            $0.owner = $0.owner
                .jsonSet(\.name, "Tom, Esq.")
                .jsonSet(\.isVerified, true)
        }
        #expect(update.sql.contains(#"SET "owner" = json_set("owner", '$."name"', ?, '$."isVerified"', json("#))
        try update.execute(db)
        let owner = try #require(try Shop.find(2).fetchOne(db)).owner
        #expect(owner.name == "Tom, Esq." && owner.isVerified && owner.links == Self.tom.links)
    }

    @Test func aColumnGatheredIntoAnArray() throws {
        let query = Item.select {
            $0.title.jsonGroupArray()
        }
        #expect(query.sql == #"SELECT json_group_array("item"."title") FROM "item""#)
        #expect(try query.fetchOne(db) == ["Atlas", "Bookmark"])
    }

    @Test func rowsGatheredIntoAnArrayOfModels() throws {
        let query = Shop
            .group(by: \.id)
            .leftJoin(Item.all) { $0.id.eq($1.shopID) }
            .select {
                ShopRow.Columns(
                    shop: $0,
                    items: $1.jsonGroupArray()
                )
            }
        #expect(query.sql.contains(#"json_group_array(json_object('id', "item"."id", 'title', "item"."title", 'shopID', "item"."shopID")) FILTER (WHERE ("item"."id" IS NOT NULL))"#))
        let rows = try query.fetchAll(db)
        #expect(rows.map(\.shop.id) == [1, 2])
        #expect(rows.map(\.items) == [
            [Item(id: 1, title: "Atlas", shopID: 1), Item(id: 2, title: "Bookmark", shopID: 1)],
            [],
        ])
    }
}
