import BoutiqueDB
import Foundation
import Testing

// Everything in this module is main-actor isolated unless it says otherwise: the models, the plan and
// the suite. `@Table` and `@Selection` must still give conformances the database can use off the main
// actor, where it decodes rows.

@Table
struct Note: Sendable, Equatable {
    @Column(primaryKey: true) let id: UUID
    var title: String
    var body: String
    var updatedAt: Date = Date()
}

@Selection
struct TitleCount: Sendable, Equatable {
    var title: String
    var count: Int
}

/// SQLite calls a database function from the database's connections, off the main actor: here, where
/// the default isolation is the main actor, the function says it is `nonisolated`.
@DatabaseFunction
nonisolated func exclaim(_ text: String) -> String {
    text + "!"
}

/// An aggregate, `nonisolated` too.
@DatabaseFunction
nonisolated func longest(_ titles: some Sequence<String>) -> String? {
    titles.max { $0.count < $1.count }
}

enum Plan {
    static let migrations = BoutiqueMigrationPlan {
        BoutiqueMigration("v1_note") { conn in
            try conn.execute(
                "CREATE TABLE note (id TEXT PRIMARY KEY, title TEXT NOT NULL, body TEXT NOT NULL, updatedAt REAL NOT NULL)")
        }
    }
}

@Suite struct MainActorModuleTests {
    @Test func modelsWriteReadAndGroupThroughTheDatabase() async throws {
        let db = try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: Plan.migrations)
        try await db.write { conn in
            try Note.insert {
                Note.Draft(title: "Milk", body: "2 l", updatedAt: Date(timeIntervalSince1970: 1))
                Note.Draft(title: "Milk", body: "oat", updatedAt: Date(timeIntervalSince1970: 2))
                Note.Draft(title: "Eggs", body: "6", updatedAt: Date(timeIntervalSince1970: 3))
            }.execute(conn.connection)
        }
        let milk = try await db.read { conn in
            try Note.where { $0.title == "Milk" }.order { $0.updatedAt }.fetchAll(conn.connection)
        }
        #expect(milk.map(\.body) == ["2 l", "oat"])
        let counts = try await db.read { conn in
            try Note.all.group { $0.title }.order { $0.title }
                .select { TitleCount.Columns(title: $0.title, count: $0.id.count()) }
                .fetchAll(conn.connection)
        }
        #expect(counts == [TitleCount(title: "Eggs", count: 1), TitleCount(title: "Milk", count: 2)])
        await db.close()
    }

    @Test func databaseFunctionsRunOffTheMainActor() async throws {
        var options = BoutiqueDB.Options()
        options.prepareDatabase { conn in
            try conn.add(function: $exclaim)
            try conn.add(function: $longest)
        }
        let db = try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: Plan.migrations, options: options)
        try await db.write { conn in
            try Note.insert {
                Note.Draft(title: "Milk", body: "", updatedAt: Date(timeIntervalSince1970: 1))
                Note.Draft(title: "Oranges", body: "", updatedAt: Date(timeIntervalSince1970: 2))
            }.execute(conn.connection)
        }
        let titles = try await db.read { conn in
            try Note.all.order { $0.updatedAt }.select { $exclaim($0.title) }.fetchAll(conn.connection)
        }
        #expect(titles == ["Milk!", "Oranges!"])
        let longestTitle = try await db.read { conn in try Note.all.select { $longest($0.title) }.fetchOne(conn.connection) }
        #expect(longestTitle == "Oranges")
        await db.close()
    }
}
