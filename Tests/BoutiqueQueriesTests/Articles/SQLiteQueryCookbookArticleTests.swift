import BoutiqueQueries
import BoutiqueSQLite
import Foundation
import Testing

/// The examples of StructuredQueries' SQLite "Query cookbook" article: a one-to-many association read
/// first with two queries stitched in Swift, then in one query whose `@Selection` row holds the
/// associated rows as a JSON array (`jsonGroupArray()` of a left-joined table), and with two
/// associations at once (`jsonGroupArray(distinct: true)`). Kitchens, their recipes and their
/// appliances stand in for the data.
@Suite("Article: SQLite query cookbook")
struct SQLiteQueryCookbookArticleTests {
    @Table("kitchen")
    struct Kitchen: Identifiable, Codable, Equatable {
        let id: Int
        var title = ""
    }

    @Table("recipe")
    struct Recipe: Identifiable, Codable, Equatable {
        let id: Int
        var title = ""
        var isVegan = false
        var kitchenID: Kitchen.ID
    }

    @Table("appliance")
    struct Appliance: Identifiable, Codable, Equatable {
        let id: Int
        var title = ""
        var kitchenID: Kitchen.ID
    }

    @Selection
    struct Row: Equatable {
        let kitchen: Kitchen
        @Column(as: [Recipe].JSONRepresentation.self)
        let recipes: [Recipe]
    }

    @Selection
    struct FullRow: Equatable {
        let kitchen: Kitchen
        @Column(as: [Appliance].JSONRepresentation.self)
        let appliances: [Appliance]
        @Column(as: [Recipe].JSONRepresentation.self)
        let recipes: [Recipe]
    }

    static let soup = Recipe(id: 1, title: "Soup", isVegan: true, kitchenID: 1)
    static let stew = Recipe(id: 2, title: "Stew", kitchenID: 1)
    static let toast = Recipe(id: 3, title: "Toast", kitchenID: 2)
    static let oven = Appliance(id: 1, title: "Oven", kitchenID: 1)
    static let kettle = Appliance(id: 2, title: "Kettle", kitchenID: 1)

    /// Three kitchens: one with two recipes and two appliances, one with a recipe, one with nothing.
    let db: Connection
    init() throws {
        db = try Connection(path: ":memory:")
        try db.execute("""
            CREATE TABLE kitchen (id INTEGER PRIMARY KEY, title TEXT NOT NULL DEFAULT '');
            CREATE TABLE recipe (id INTEGER PRIMARY KEY, title TEXT NOT NULL DEFAULT '',
                isVegan INTEGER NOT NULL DEFAULT 0, kitchenID INTEGER NOT NULL REFERENCES kitchen(id));
            CREATE TABLE appliance (id INTEGER PRIMARY KEY, title TEXT NOT NULL DEFAULT '',
                kitchenID INTEGER NOT NULL REFERENCES kitchen(id));
            """)
        try Kitchen.insert {
            Kitchen(id: 1, title: "Home")
            Kitchen(id: 2, title: "Cabin")
            Kitchen(id: 3, title: "Bare")
        }.execute(db)
        try Recipe.insert { Self.soup; Self.stew; Self.toast }.execute(db)
        try Appliance.insert { Self.oven; Self.kettle }.execute(db)
    }

    @Test func twoQueriesStitchedInSwift() throws {
        // The article runs the queries with `execute(db)`; rows are fetched with `fetchAll` here.
        let kitchens = try Kitchen.all.fetchAll(db)
        let recipesQuery = Recipe
            .where { $0.kitchenID.in(kitchens.map(\.id)) }
        #expect(recipesQuery.sql.hasSuffix(#"FROM "recipe" WHERE ("recipe"."kitchenID" IN (?, ?, ?))"#))
        let recipes = try recipesQuery.fetchAll(db)
        let rows = kitchens.map { kitchen in
            Row(kitchen: kitchen, recipes: recipes.filter { $0.kitchenID == kitchen.id })
        }
        let counts: [Int] = rows.map { $0.recipes.count }
        #expect(counts == [2, 1, 0])
    }

    @Test func oneQueryWithTheAssociationAsJSON() throws {
        let query = Kitchen
            .leftJoin(Recipe.all) { $0.id.eq($1.kitchenID) }
            .select {
                Row.Columns(
                    kitchen: $0,
                    recipes: $1.jsonGroupArray()
                )
            }
        #expect(query.sql.hasPrefix(#"SELECT "kitchen"."id", "kitchen"."title", json_group_array(json_object('id', "recipe"."id", 'title', "recipe"."title", 'isVegan', "#))
        #expect(query.sql.hasSuffix(#") FILTER (WHERE ("recipe"."id" IS NOT NULL)) FROM "kitchen" LEFT JOIN "recipe" ON ("kitchen"."id" = "recipe"."kitchenID")"#))
        // Without a GROUP BY the aggregate makes one group of every row, as in SQLite: one row.
        let all = try query.fetchAll(db)
        #expect(all.count == 1 && all[0].recipes.count == 3)

        let grouped = Kitchen
            .group(by: \.id)
            .leftJoin(Recipe.all) { $0.id.eq($1.kitchenID) }
            .select {
                Row.Columns(
                    kitchen: $0,
                    recipes: $1.jsonGroupArray()
                )
            }
        #expect(grouped.sql.hasSuffix(#"LEFT JOIN "recipe" ON ("kitchen"."id" = "recipe"."kitchenID") GROUP BY "kitchen"."id""#))
        #expect(try grouped.fetchAll(db) == [
            Row(kitchen: Kitchen(id: 1, title: "Home"), recipes: [Self.soup, Self.stew]),
            Row(kitchen: Kitchen(id: 2, title: "Cabin"), recipes: [Self.toast]),
            Row(kitchen: Kitchen(id: 3, title: "Bare"), recipes: []),
        ])
    }

    @Test func twoAssociationsWithDistinctArrays() throws {
        let query = Kitchen
            .group(by: \.id)
            .leftJoin(Appliance.all) { $0.id.eq($1.kitchenID) }
            .leftJoin(Recipe.all) { $0.id.eq($2.kitchenID) }
            .select {
                FullRow.Columns(
                    kitchen: $0,
                    appliances: $1.jsonGroupArray(distinct: true),
                    recipes: $2.jsonGroupArray(distinct: true)
                )
            }
        #expect(query.sql.contains(#"json_group_array(DISTINCT json_object('id', "appliance"."id""#))
        #expect(query.sql.contains(#"json_group_array(DISTINCT json_object('id', "recipe"."id""#))
        #expect(query.sql.hasSuffix(#"FROM "kitchen" LEFT JOIN "appliance" ON ("kitchen"."id" = "appliance"."kitchenID") LEFT JOIN "recipe" ON ("kitchen"."id" = "recipe"."kitchenID") GROUP BY "kitchen"."id""#))
        // Home joins 2 × 2 rows; DISTINCT leaves each appliance and recipe once.
        // The arrays' order is SQLite's (no ORDER BY inside the aggregate): compared by id.
        let rows = try query.fetchAll(db).map {
            FullRow(kitchen: $0.kitchen, appliances: $0.appliances.sorted { $0.id < $1.id }, recipes: $0.recipes.sorted { $0.id < $1.id })
        }
        #expect(rows == [
            FullRow(kitchen: Kitchen(id: 1, title: "Home"), appliances: [Self.oven, Self.kettle].sorted { $0.id < $1.id }, recipes: [Self.soup, Self.stew]),
            FullRow(kitchen: Kitchen(id: 2, title: "Cabin"), appliances: [], recipes: [Self.toast]),
            FullRow(kitchen: Kitchen(id: 3, title: "Bare"), appliances: [], recipes: []),
        ])
    }
}
