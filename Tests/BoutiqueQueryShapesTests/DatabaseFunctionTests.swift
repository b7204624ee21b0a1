import BoutiqueDB
import BoutiqueQueryShapes
import Foundation
import Testing

/// Swift functions added with `prepareDatabase`, called from queries on the writer, the readers and
/// live queries.
@Suite @MainActor struct DatabaseFunctionTests {
    private func open() async throws -> BoutiqueDB {
        let db = try await BoutiqueDB.open(
            url: BoutiqueDB.inMemoryURL(), migrations: RemindersMigrations.plan, options: FunctionShapes.options())
        try await db.write { conn in try RemindersMigrations.seed(conn) }
        return db
    }

    @Test func inASelectOnAReader() async throws {
        let db = try await open()
        let query = FunctionShapes.exclaimedTitles()
        #expect(query.sql == #"SELECT "exclaim"("reminder"."title") FROM "reminder""#)
        let titles = try await db.read { conn in try query.fetchAll(conn) }
        #expect(titles.sorted() == ["!", "Email boss!", "Groceries!", "Haircut!"])
    }

    @Test func inAWhere() async throws {
        let db = try await open()
        let query = FunctionShapes.remindersExclaimed(as: "Haircut!")
        #expect(query.sql.hasSuffix(#"FROM "reminder" WHERE ("exclaim"("reminder"."title") = ?)"#))
        #expect(query.bindings == [.text("Haircut!")])
        #expect(try await db.read { conn in try query.fetchAll(conn) }.map(\.id) == [2])
    }

    @Test func inAnUpdateOnTheWriter() async throws {
        let db = try await open()
        let update = FunctionShapes.exclaimTitle(of: 2)
        #expect(update.sql == #"UPDATE "reminder" SET "title" = "exclaim"("title") WHERE ("reminder"."id" = ?)"#)
        try await db.write { conn in try update.execute(conn) }
        let title = try await db.read { conn in try Reminder.find(2).select { $0.title }.fetchOne(conn) }
        #expect(title == "Haircut!")
    }

    @Test func inALiveQuery() async throws {
        let db = try await open()
        var titles = db.observe(Reminder.where { $0.id == 2 }.select { FunctionShapes.exclaim($0.title) })
            .makeAsyncIterator()
        #expect(try await titles.next() == ["Haircut!"])
        try await db.write { conn in try conn.execute("UPDATE reminder SET title = 'Shave' WHERE id = 2") }
        #expect(try await titles.next() == ["Shave!"])
    }

    @Test func aThrowingFunctionFailsTheStatementWithItsMessage() async throws {
        let db = try await open()
        #expect(FunctionShapes.squareRootOfMinutes().sql == #"SELECT "checkedSqrt"("reminder"."estimatedMinutes") FROM "reminder""#)
        let roots = try await db.read { conn in try FunctionShapes.squareRootOfMinutes().fetchAll(conn) }
        #expect(roots.compactMap { $0 }.sorted() == [Double(5).squareRoot(), Double(30).squareRoot()])
        try await db.write { conn in try conn.execute("UPDATE reminder SET estimatedMinutes = -4 WHERE id = 1") }
        let error = await #expect(throws: BoutiqueError.self) {
            try await db.read { conn in try FunctionShapes.squareRootOfMinutes().fetchAll(conn) }
        }
        #expect(error?.resultCode?.primary == .error)
        #expect("\(String(describing: error))".contains("checkedSqrt: -4.0 is negative"))
    }

    /// Arguments are read as columns of their types are: a number reads as its text, a blob is refused.
    @Test func aWrongArgumentTypeIsAnErrorNotATrap() async throws {
        let db = try await open()
        #expect(try await db.read { conn in try conn.fetchValue("SELECT exclaim(42)") } == .text("42!"))
        let error = await #expect(throws: BoutiqueError.self) {
            try await db.read { conn in try conn.fetchValue("SELECT exclaim(x'2a')") }
        }
        #expect("\(String(describing: error))".contains("exclaim: argument 1: expected String, found BLOB of 1 bytes"))
    }

    @Test func aWrongArgumentCountIsAnError() async throws {
        let db = try await open()
        let error = await #expect(throws: BoutiqueError.self) {
            try await db.read { conn in try conn.fetchValue("SELECT exclaim('a', 'b')") }
        }
        #expect("\(String(describing: error))".contains("wrong number of arguments to function exclaim()"))
    }

    @Test func withoutPreparationTheFunctionIsUnknown() async throws {
        let db = try await openRemindersDatabase()
        let error = await #expect(throws: BoutiqueError.self) {
            try await db.read { conn in try FunctionShapes.exclaimedTitles().fetchAll(conn) }
        }
        #expect("\(String(describing: error))".contains("no such function: exclaim"))
    }

    @Test func aFailingPreparationFailsTheOpen() async throws {
        var options = BoutiqueDB.Options()
        options.prepareDatabase { conn in
            try conn.add(scalarFunction: "bad", argumentCount: 1000) { _ in .null }
        }
        await #expect(throws: BoutiqueError.self) {
            _ = try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: RemindersMigrations.plan, options: options)
        }
    }
}
