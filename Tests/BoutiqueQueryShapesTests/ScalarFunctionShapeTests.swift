import BoutiqueDB
import BoutiqueQueryShapes
import Testing

/// The scalar-function shapes run on the seed rows (reminder 4 has an empty title and an empty note).
@Suite @MainActor struct ScalarFunctionShapeTests {
    @Test func optionalColumnsThroughNullifAndIfnull() async throws {
        let db = try await openRemindersDatabase()
        let milk = ScalarFunctionShapes.notesMentioning("Milk")
        #expect(milk.sql.contains(#"nullif("reminder"."notes", ?), ifnull("reminder"."estimatedMinutes", ?)"#))
        let found = try await db.read { conn in try milk.fetchAll(conn) }
        #expect(found.map(\.0) == ["Groceries"] && found.map(\.1) == ["Milk"] && found.map(\.2) == [30])
        // Every note holds the empty string: the empty note reads as none, its missing estimate as 0.
        let all = try await db.read { conn in try ScalarFunctionShapes.notesMentioning("").fetchAll(conn) }
            .sorted { $0.0 > $1.0 }
        #expect(all.map(\.0) == ["Groceries", ""])
        #expect(all.map(\.1) == ["Milk", nil])
        #expect(all.map(\.2) == [30, 0])
    }

    @Test func substringsByteCountsAndQuotes() async throws {
        let db = try await openRemindersDatabase()
        let rows = try await db.read { conn in try ScalarFunctionShapes.shortTitles(length: 5).fetchAll(conn) }
            .sorted { $0.2 < $1.2 }
        #expect(rows.map(\.0) == ["", "Email", "Groce", "Hairc"])
        #expect(rows.map(\.1) == [0, 10, 9, 7])
        #expect(rows.map(\.2) == ["''", "'Email boss'", "'Groceries'", "'Haircut'"])
    }

    @Test func plannerHintsAndBlobs() async throws {
        let db = try await openRemindersDatabase()
        let hinted = ScalarFunctionShapes.openWithHints(listID: 1)
        #expect(hinted.sql.contains("likely(") && hinted.sql.contains("likelihood(") && hinted.sql.contains(", 0.2)"))
        let plain = Reminder.where { $0.listID.eq(1).and($0.isDone.not()).and($0.estimatedMinutes.isNot(nil)) }
        let hintedIDs = try await db.read { conn in try hinted.fetchAll(conn).map(\.id).sorted() }
        let plainIDs = try await db.read { conn in try plain.fetchAll(conn).map(\.id).sorted() }
        #expect(hintedIDs == plainIDs)
        #expect(!plainIDs.isEmpty)
        let salted = try await db.read { conn in try ScalarFunctionShapes.saltedTitles().fetchAll(conn) }
        #expect(!salted.isEmpty)
        #expect(salted.allSatisfy { $0.1.count == 8 && $0.2 == 8 && $0.3 == 4 })
        #expect(Set(salted.map(\.1)).count == salted.count)
    }
}
