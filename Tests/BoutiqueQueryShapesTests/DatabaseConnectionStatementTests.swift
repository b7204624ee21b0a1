import BoutiqueDB
import BoutiqueQueryShapes
import Testing

/// Statements run on the closure's `conn` exactly as on `conn.connection`.
@Suite @MainActor struct DatabaseConnectionStatementTests {
    @Test func everyKindOfStatementRunsOnTheClosuresConnection() async throws {
        let db = try await openRemindersDatabase()
        try await db.write { conn in
            try Member.insert { Member(id: 3, name: "Linus") }.execute(conn)
            try Member.where { $0.id == 3 }.update { $0.name = "Linus T." }.execute(conn)
            try #sql("UPDATE \(Member.self) SET name = \("Ada L.") WHERE id = \(1)").execute(conn)
            try Reminder.where { $0.assigneeID == 2 }.update { $0.assigneeID = nil }.execute(conn)
            try Member.where { $0.id == 2 }.delete().execute(conn)
        }
        let (all, one, count, raw, names) = try await db.read { conn in
            (
                try Member.order { $0.id }.fetchAll(conn),
                try Member.find(3).fetchOne(conn),
                try Member.all.fetchCount(conn),
                try #sql("SELECT count(*) FROM \(Member.self)", as: Int.self).fetchOne(conn),
                try #sql("SELECT name FROM \(Member.self) ORDER BY id", as: String.self).fetchAll(conn)
            )
        }
        #expect(all == [Member(id: 1, name: "Ada L."), Member(id: 3, name: "Linus T.")])
        #expect(one == Member(id: 3, name: "Linus T."))
        #expect(count == 2 && raw == 2)
        #expect(names == ["Ada L.", "Linus T."])
        let sameOnTheSQLiteConnection = try await db.read { conn in try Member.order { $0.id }.fetchAll(conn.connection) }
        #expect(sameOnTheSQLiteConnection == all)
    }
}
