@testable import BoutiqueDB
import BoutiqueTestSupport
import Foundation
import Testing

/// Temporary triggers and views created with `prepareDatabase`: on every connection, after the
/// migrations that create their tables, and with the triggers' writes in the change log like any other.
@Suite("Temporary triggers and views")
struct TemporaryTriggerAndViewTests {
    @Table("item")
    struct Item: Equatable {
        let id: Int
        var name: String
        var price: Double?
    }

    @Table("tag")
    struct Tag: Equatable {
        @Column(primaryKey: true) let name: String
        var weight: Int?
    }

    /// The items' names, as a view.
    @Table("namedItem") @Selection
    struct NamedItem: Equatable {
        @Column(primaryKey: true) let id: Int
        let name: String
    }

    static let namedItems = NamedItem.createTemporaryView(
        as: Item.all.select { NamedItem.Columns(id: $0.id, name: $0.name) })

    /// An item inserted through the view is a new item.
    static let insertNamedItem = NamedItem.createTemporaryTrigger(
        "insert_named_item", insteadOf: .insert { new in Item.insert { $0.name } values: { new.name } })

    /// Each new item adds its name as a tag; a renamed item weighs its tag.
    static let tagNewItems = Item.createTemporaryTrigger(
        "tag_new_items", after: .insert { new in Tag.insert { ($0.name, $0.weight) } values: { (new.name, Int?(0)) } })
    static let weighRenamedItems = Item.createTemporaryTrigger(
        "weigh_renamed_items",
        after: .update(of: { $0.name }) { old, _ in
            Tag.update { $0.weight = $0.weight + 1 }.where { $0.name.eq(old.name) }
        })

    static func options(failing: Bool = false) -> DatabaseOptions {
        var options = DatabaseOptions()
        options.prepareDatabase { conn in
            try conn.execute(namedItems)
            guard conn.isWriter else { return }
            try conn.execute(insertNamedItem)
            try conn.execute(tagNewItems)
            try conn.execute(weighRenamedItems)
            if failing { try conn.execute(Item.createTemporaryTrigger("tag_new_items", after: .delete { _ in Values(1) })) }
        }
        return options
    }

    @Test func createdOnEveryConnectionOnceTheMigrationsHaveRun() async throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("items.db")
        for opening in 1...2 {
            let database = try await DatabaseActor.open(url: url, migrations: CaptureMigrations.plan, options: Self.options())
            try await database.write { conn in
                try NamedItem.insert { NamedItem.Draft(name: "pen \(opening)") }.execute(conn)
            }
            let (named, tags) = try await database.read { conn in
                (try NamedItem.order(by: \.id).fetchAll(conn), try Tag.order(by: \.name).fetchAll(conn))
            }
            #expect(named.map(\.name) == (1...opening).map { "pen \($0)" })
            #expect(tags == (1...opening).map { Tag(name: "pen \($0)", weight: 0) })
            // Temporary objects are the connection's own: nothing of them is in the file's schema.
            let schema = try await database.read { conn in try conn.fetchAll("SELECT name FROM sqlite_schema WHERE type IN ('view', 'trigger')") }
            #expect(schema.isEmpty)
            await database.close()
        }
    }

    @Test func theTriggersWritesAreInTheChangeLogInTheirTransaction() async throws {
        let database = try await DatabaseActor.open(
            url: BoutiqueDB.inMemoryURL(), migrations: CaptureMigrations.plan, options: Self.options())
        defer { Task { await database.close() } }
        let start = try await database.lastChangeID()
        try await database.write { conn in
            try NamedItem.insert { NamedItem.Draft(name: "it's") }.execute(conn)
        }
        try await database.write { conn in
            try Item.update { $0.name = "cup" }.where { $0.id == 1 }.execute(conn)
        }
        let changes = try await database.loggedChanges(after: start)
        #expect(changes.map { "\($0.type) \($0.table ?? "-")" } == ["1 item", "1 tag", "2 -", "0 item", "0 tag", "2 -"])
        #expect(changes[1].after == [.text("it's"), .integer(0)])
        #expect(changes[4].after == [.text("it's"), .integer(1)])
        #expect(Set(changes[0...2].map(\.transaction)).count == 1)
        // Creating them logged no schema change.
        #expect(try await database.loggedChanges().allSatisfy { !($0.table == "sqlite_schema" && "\($0.after ?? [])".contains("namedItem")) })
    }

    @Test func aStatementThatFailsFailsTheOpenWithItsError() async throws {
        await #expect {
            _ = try await DatabaseActor.open(
                url: BoutiqueDB.inMemoryURL(), migrations: CaptureMigrations.plan, options: Self.options(failing: true))
        } throws: { error in
            guard let error = error as? BoutiqueError, case .sql(_, let message) = error else { return false }
            return String(describing: message).contains("already exists")
        }
    }
}
