import BoutiqueDB
import BoutiqueQueryShapes
import Foundation
import Testing

/// Models declared inside a namespace, naming its other types, compile and read and write their rows.
@Suite @MainActor struct NestedModelTests {
    @Test func nestedModelsWriteAndReadTheirRows() async throws {
        let db = try await openRemindersDatabase()
        let items = [
            Shop.Item(id: 1, size: .small, previousSize: .large, history: [.large, .small], box: .init(width: 3)),
            Shop.Item(id: 2, size: .large, box: .init(width: 9)),
            Shop.Item(id: 3, size: .small, box: .init(width: 1)),
        ]
        try await db.write { conn in
            try Shop.Item.createTable().execute(conn)
            try Shop.Order.createTable().execute(conn)
            try Shop.Item.insert(items).execute(conn)
            try Shop.Order.insert([
                Shop.Order(id: 1, itemID: 1, size: .small), Shop.Order(id: 2, itemID: 1, size: .small),
                Shop.Order(id: 3, itemID: 2, size: .large),
            ]).execute(conn)
            try Shop.Item.insert { Shop.Item.Draft(size: .large, previousSize: nil, history: [], box: .init(width: 5)) }.execute(conn)
        }
        let read = try await db.read { conn in try Shop.Item.order { $0.id }.fetchAll(conn) }
        #expect(Array(read.prefix(3)) == items)
        #expect(read.last?.id == 4 && read.last?.size == .large)
        let small = try await db.read { conn in try Shop.items(of: .small).order { item, _ in item.id }.fetchAll(conn) }
        #expect(small.map(\.item.id) == [1, 3])
        #expect(small.map(\.orderCount) == [2, 0])
        #expect(small.allSatisfy { $0.size == .small })
    }

    @Test func qualifiedAndBacktickedTypeNames() async throws {
        let db = try await openRemindersDatabase()
        let delivery = Shop.Delivery(id: 1, mode: .delivery, size: .large, when: Date(timeIntervalSince1970: 1_000))
        try await db.write { conn in
            try conn.execute("CREATE TABLE delivery (id INTEGER PRIMARY KEY, mode INTEGER NOT NULL, size TEXT NOT NULL, \"when\" REAL NOT NULL)")
            try Shop.Delivery.insert([delivery]).execute(conn)
        }
        let read = try await db.read { conn in try Shop.Delivery.all.fetchAll(conn) }
        #expect(read == [delivery])
        let selected = try await db.read { conn in
            try Shop.Delivery.all.select { Shop.Delivery.Columns(id: $0.id, mode: $0.mode, size: $0.size, when: $0.when) }.fetchAll(conn)
        }
        #expect(selected == [delivery])
    }
}

