import BoutiqueQueries
import BoutiqueSQLite
import Testing

/// StructuredQueries' deprecated insert spellings (a row or draft passed as an argument, `onConflict:`
/// instead of `onConflictDoUpdate:`) write the same statements as the spellings that replace them.
/// The calls live in deprecated helpers, as in an app that has not moved yet, so they do not warn here.
@Suite("Deprecated insert spellings")
struct DeprecatedInsertSpellingsTests {
    @Table("pantry")
    struct PantryItem: Equatable {
        let id: Int
        var name = ""
        var count = 0
    }

    static func database() throws -> Connection {
        let db = try Connection(path: ":memory:")
        try db.execute(#"CREATE TABLE "pantry" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL UNIQUE, "count" INTEGER NOT NULL DEFAULT 0)"#)
        return db
    }

    @available(*, deprecated)
    static func oldSpellings(_ db: Connection) throws -> [Insert<PantryItem>] {
        let plain = PantryItem.insert(PantryItem(id: 1, name: "Rice", count: 1))
        let draft = PantryItem.insert(PantryItem.Draft(name: "Oats", count: 2))
        let drafts = PantryItem.insert([PantryItem.Draft(name: "Tea", count: 3), PantryItem.Draft(name: "Salt", count: 4)])
        let merged = PantryItem.insert(PantryItem(id: 9, name: "Rice", count: 5), onConflict: { $0.count += 5 })
        let mergedRows = PantryItem.insert([PantryItem(id: 10, name: "Tea", count: 1)], onConflict: { $0.count += 1 })
        return [plain, draft, drafts, merged, mergedRows]
    }

    @available(*, deprecated)
    static func oldValuesSpelling() -> InsertValues<PantryItem> {
        PantryItem.insert { ($0.name, $0.count) } values: { ("Oats", 10) } onConflict: { $0.count += 10 }
    }

    @available(*, deprecated)
    @Test func theOldSpellingsWriteWhatTheNewOnesDo() throws {
        let db = try Self.database()
        let old = try Self.oldSpellings(db)
        #expect(old[0].sql == PantryItem.insert { PantryItem(id: 1, name: "Rice", count: 1) }.sql)
        #expect(old[3].sql == PantryItem.insert { PantryItem(id: 9, name: "Rice", count: 5) } onConflictDoUpdate: { $0.count += 5 }.sql)
        #expect(old[3].sql.contains("ON CONFLICT DO UPDATE SET"))
        for insert in old { try insert.execute(db) }
        try Self.oldValuesSpelling().execute(db)
        let rows = try PantryItem.order(by: \.id).fetchAll(db)
        #expect(rows.map(\.name) == ["Rice", "Oats", "Tea", "Salt"])
        #expect(rows.map(\.count) == [6, 12, 4, 4])
    }
}
