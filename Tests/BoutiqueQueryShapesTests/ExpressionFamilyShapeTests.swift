import BoutiqueDB
import BoutiqueQueryShapes
import Testing

/// The CASE, aggregate-option and cast shapes run on the seed rows: Groceries (open, high, 30 minutes),
/// Haircut (done), Email boss (open, low, 5 minutes) and an untitled open reminder.
@Suite @MainActor struct ExpressionFamilyShapeTests {
    @Test func caseWithAndWithoutElse() async throws {
        let db = try await openRemindersDatabase()
        let words = try await db.read { conn in try ExpressionFamilyShapes.priorityWords().fetchAll(conn) }
            .sorted { $0.0 < $1.0 }
        #expect(words.map(\.1) == ["high", "low", "high", "high"])
        let open = try await db.read { conn in try ExpressionFamilyShapes.openTitles().fetchAll(conn) }
        #expect(open.sorted { ($0 ?? "~") < ($1 ?? "~") } == ["", "Email boss", "Groceries", nil])
    }

    @Test func filteredAggregatesPerList() async throws {
        let db = try await openRemindersDatabase()
        let rows = try await db.read { conn in try ExpressionFamilyShapes.listProgress().fetchAll(conn) }
            .sorted { $0.0 < $1.0 }
        #expect(rows.map(\.0) == [1, 2])
        #expect(rows.map(\.1) == [1, 0])
        #expect(rows.map(\.2) == [30, 5])
        #expect(rows.map(\.3) == ["Groceries", "Email boss, "])
    }

    @Test func everyAggregateOption() async throws {
        let db = try await openRemindersDatabase()
        let row = try #require(try await db.read { conn in try ExpressionFamilyShapes.aggregateOptions().fetchOne(conn) })
        #expect(row.0 == nil)
        #expect(row.1 == 30 && row.2 == 5)
        #expect(row.3 == 35.0)
        #expect(row.4 == "Haircut")
        #expect(row.5 == 1)
    }

    @Test func casts() async throws {
        let db = try await openRemindersDatabase()
        let rows = try await db.read { conn in try ExpressionFamilyShapes.casts().fetchAll(conn) }
            .sorted { $0.0 < $1.0 }
        #expect(rows.map(\.0) == ["1", "2", "3", "4"])
        #expect(rows.map(\.1) == ["30", nil, "5", nil])
        #expect(rows.map(\.2) == [30.0, nil, 5.0, nil])
        #expect(rows.map(\.3) == ["Milk", nil, nil, ""])
    }

    @Test func dateAndJSONShapesRender() {
        #expect(ExpressionFamilyShapes.started().sql.contains(#"WHERE ("event"."startsAt" <= ?)"#))
        #expect(ExpressionFamilyShapes.titlesAndTagCounts().sql.hasPrefix(
            #"SELECT json_group_array("event"."title"), json_group_array(json("event"."tags")), coalesce(sum(json_array_length("event"."tags")), ?)"#))
    }
}
