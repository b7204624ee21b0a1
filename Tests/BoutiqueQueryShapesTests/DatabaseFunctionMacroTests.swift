import BoutiqueDB
import BoutiqueQueryShapes
import Foundation
import Testing

/// Functions made with `@DatabaseFunction`, added with `prepareDatabase` and called as `$name(…)` on
/// the writer, the readers and live queries: the SQL each query renders and the rows it returns.
@Suite @MainActor struct DatabaseFunctionMacroTests {
    private let log = CallLog()
    private let greeter = Greeter(greeting: "Hello")

    private func open() async throws -> BoutiqueDB {
        let db = try await BoutiqueDB.open(
            url: BoutiqueDB.inMemoryURL(), migrations: RemindersMigrations.plan,
            options: DatabaseFunctionMacroShapes.options(log: log, greeter: greeter))
        try await db.write { conn in try RemindersMigrations.seed(conn) }
        return db
    }

    @Test func inASelectOnAReader() async throws {
        let db = try await open()
        let query = DatabaseFunctionMacroShapes.shoutedTitles()
        #expect(query.sql == #"SELECT "shout"("reminder"."title") FROM "reminder""#)
        let titles = try await db.read { conn in try query.fetchAll(conn) }
        #expect(titles.sorted() == ["!", "Email boss!", "Groceries!", "Haircut!"])
    }

    @Test func inAWhere() async throws {
        let db = try await open()
        let query = DatabaseFunctionMacroShapes.reminders(shoutedAs: "Haircut!")
        #expect(query.sql.hasSuffix(#"FROM "reminder" WHERE ("shout"("reminder"."title") = ?)"#))
        #expect(query.bindings == [.text("Haircut!")])
        #expect(try await db.read { conn in try query.fetchAll(conn) }.map(\.id) == [2])
    }

    @Test func inAnUpdateOnTheWriter() async throws {
        let db = try await open()
        let update = DatabaseFunctionMacroShapes.shoutTitle(of: 2)
        #expect(update.sql == #"UPDATE "reminder" SET "title" = "shout"("title") WHERE ("reminder"."id" = ?)"#)
        try await db.write { conn in try update.execute(conn) }
        let title = try await db.read { conn in try Reminder.find(2).select { $0.title }.fetchOne(conn) }
        #expect(title == "Haircut!")
    }

    @Test func inALiveQuery() async throws {
        let db = try await open()
        var titles = db.observe(Reminder.where { $0.id == 2 }.select { $shout($0.title) }).makeAsyncIterator()
        #expect(try await titles.next() == ["Haircut!"])
        try await db.write { conn in try conn.execute("UPDATE reminder SET title = 'Shave' WHERE id = 2") }
        #expect(try await titles.next() == ["Shave!"])
    }

    /// The SQL name given to the macro, an optional argument, and the function's own error message.
    @Test func aThrowingFunctionFailsTheStatementWithItsMessage() async throws {
        let db = try await open()
        let query = DatabaseFunctionMacroShapes.squareRoots()
        #expect(query.sql == #"SELECT "checked_sqrt"("reminder"."estimatedMinutes") FROM "reminder" ORDER BY "reminder"."id""#)
        #expect(try await db.read { conn in try query.fetchAll(conn) } == [Double(30).squareRoot(), nil, Double(5).squareRoot(), nil])
        try await db.write { conn in try conn.execute("UPDATE reminder SET estimatedMinutes = -4 WHERE id = 1") }
        let error = await #expect(throws: BoutiqueError.self) {
            try await db.read { conn in try query.fetchAll(conn) }
        }
        #expect(error?.resultCode?.primary == .error)
        #expect("\(String(describing: error))".contains("checked_sqrt: -4 is negative"))
    }

    /// Labels, a default value bound as NULL, a date, a Boolean and an optional UUID.
    @Test func labeledArgumentsOfSeveralTypes() async throws {
        let db = try await open()
        let query = DatabaseFunctionMacroShapes.summaries()
        #expect(query.sql == #"SELECT "summary"("reminder"."title", "reminder"."dueDate", "reminder"."isDone", ?) FROM "reminder" ORDER BY "reminder"."id""#)
        #expect(query.bindings == [.null])
        #expect(try await db.read { conn in try query.fetchAll(conn) } == [
            "Groceries (no date)", "Haircut (no date, done)", "Email boss (due 100)", " (no date)",
        ])
        let tagged = try await db.read { conn in
            try Reminder.where { $0.id == 1 }.select { _ in $summary(title: "A", due: Date?.none, id: Optional(UUID())) }
                .fetchOne(conn)
        }
        #expect(tagged == "A (no date, tagged)")
    }

    /// `as:` reads and writes a JSON array.
    @Test func aJSONRepresentation() async throws {
        let db = try await open()
        let query = DatabaseFunctionMacroShapes.exclaimedTitleArray()
        #expect(query.sql == #"SELECT "exclaimAll"(json_group_array("reminder"."title")) FROM "reminder" WHERE ("reminder"."title" <> ?)"#)
        let titles = try await db.read { conn in try query.fetchOne(conn) }
        #expect(titles?.sorted() == ["Email boss!", "Groceries!", "Haircut!"])
    }

    /// A row passed as `$0` is every column of the table, decoded as the model.
    @Test func aWholeRow() async throws {
        let db = try await open()
        let query = DatabaseFunctionMacroShapes.lateReminders(at: Date(timeIntervalSince1970: 200))
        #expect(query.sql.hasSuffix(
            #"WHERE "isLate"("reminder"."id", "reminder"."listID", "reminder"."title", "reminder"."notes", "reminder"."dueDate", "reminder"."priority", "reminder"."estimatedMinutes", "reminder"."isDone", "reminder"."assigneeID", ?)"#))
        #expect($isLate.argumentCount == 10)
        #expect(try await db.read { conn in try query.fetchAll(conn) }.map(\.id) == [3])
    }

    @Test func anEnumInAndOut() async throws {
        let db = try await open()
        #expect(try await db.read { conn in try DatabaseFunctionMacroShapes.raisedPriorities().fetchAll(conn) } == [
            .high, nil, .medium, nil,
        ])
        #expect(try await db.read { conn in try conn.fetchValue("SELECT byteCount(x'010203')") } == .integer(3))
    }

    /// The aggregate, per group and with a filter.
    @Test func anAggregate() async throws {
        let db = try await open()
        let perList = DatabaseFunctionMacroShapes.modePerList()
        #expect(perList.sql == #"SELECT "reminder"."listID", "mode"("reminder"."priority") FROM "reminder" GROUP BY "reminder"."listID" ORDER BY "reminder"."listID""#)
        let modes = try await db.read { conn in try perList.fetchAll(conn) }
        #expect(modes.map(\.0) == [1, 2] && modes.map(\.1) == [.high, .low])

        let open = DatabaseFunctionMacroShapes.modeOfOpenReminders()
        #expect(open.sql.hasPrefix(#"SELECT "mode"("reminder"."priority") FILTER (WHERE "#))
        #expect(try await db.read { conn in try open.fetchOne(conn) } == .some(.high))
    }

    /// An empty group is finished without a row: the function sees an empty sequence.
    @Test func anAggregateOfNoRows() async throws {
        let db = try await open()
        let none = try await db.read { conn in
            try Reminder.where { $0.id == 99 }.select { $mode(priority: $0.priority) }.fetchAll(conn)
        }
        #expect(none == [nil])
        let total = try await db.read { conn in
            try Reminder.where { $0.id == 99 }.select { $strictTotal($0.estimatedMinutes) }.fetchOne(conn)
        }
        #expect(total == 0)
    }

    @Test func anAggregateOfTwoArguments() async throws {
        let db = try await open()
        let query = DatabaseFunctionMacroShapes.joinedTitles()
        #expect(query.sql == #"SELECT "joined"("reminder"."title", ?) FROM "reminder" WHERE ("reminder"."title" <> ?)"#)
        #expect(try await db.read { conn in try query.fetchOne(conn) } == "Groceries / Haircut / Email boss")
    }

    @Test func aThrowingAggregateFailsTheStatement() async throws {
        let db = try await open()
        let estimated = try await db.read { conn in
            try Reminder.where { $0.estimatedMinutes.isNot(nil) }.select { $strictTotal($0.estimatedMinutes) }.fetchOne(conn)
        }
        #expect(estimated == 35)
        let error = await #expect(throws: BoutiqueError.self) {
            try await db.read { conn in try DatabaseFunctionMacroShapes.strictTotals().fetchAll(conn) }
        }
        #expect("\(String(describing: error))".contains("strictTotal: a reminder has no estimate"))
    }

    /// A value SQLite passes that the aggregate's element type cannot hold fails the statement.
    @Test func aWrongArgumentTypeInAnAggregateIsAnErrorNotATrap() async throws {
        let db = try await open()
        let error = await #expect(throws: BoutiqueError.self) {
            try await db.read { conn in try conn.fetchValue("SELECT mode(value) FROM (SELECT 1 AS value UNION ALL SELECT 'x')") }
        }
        #expect("\(String(describing: error))".contains("mode: argument 1: expected Int, found TEXT 'x'"))
        let unknownCase = await #expect(throws: BoutiqueError.self) {
            try await db.read { conn in try conn.fetchValue("SELECT mode(7)") }
        }
        #expect("\(String(describing: unknownCase))".contains("mode: argument 1: expected Priority, found 7, which is not a case"))
    }

    /// SQLite refuses a call with another number of arguments when it prepares the statement.
    @Test func aWrongArgumentCountIsAnError() async throws {
        let db = try await open()
        let error = await #expect(throws: BoutiqueError.self) {
            try await db.read { conn in try conn.fetchValue("SELECT isLate(1, 2)") }
        }
        #expect("\(String(describing: error))".contains("wrong number of arguments to function isLate()"))
    }

    @Test func aComputedProperty() async throws {
        let db = try await open()
        let query = DatabaseFunctionMacroShapes.answers()
        #expect(query.sql == #"SELECT "answer"() FROM "reminder" WHERE ("reminder"."id" = ?)"#)
        #expect(try await db.read { conn in try query.fetchAll(conn) } == [42])
    }

    /// A static method, a method of a value and a method of a class (called for its effect).
    @Test func membersOfTypes() async throws {
        let db = try await open()
        let members = DatabaseFunctionMacroShapes.members(greeter: greeter, log: log)
        #expect(members.sql.hasPrefix(#"SELECT "reversed"("reminder"."title"), "greet"("reminder"."title") FROM"#))
        let row = try await db.read { conn in try members.fetchOne(conn) }
        #expect(row?.0 == "tucriaH" && row?.1 == "Hello, Haircut")

        let record = DatabaseFunctionMacroShapes.recordTitles(log)
        #expect(record.sql == #"SELECT "record"("reminder"."title") FROM "reminder" ORDER BY "reminder"."id""#)
        try await db.write { conn in try record.execute(conn) }
        #expect(log.values == ["Groceries", "Haircut", "Email boss", ""])
    }

    /// A function returning nothing, called by a trigger for each inserted row and as a statement.
    @Test func aVoidFunctionCalledFromATriggerBody() async throws {
        let db = try await open()
        let trigger = DatabaseFunctionMacroShapes.recordInsertedTitles(log)
        #expect(trigger.sql == #"CREATE TEMPORARY TRIGGER "record_inserted_titles" AFTER INSERT ON "reminder" FOR EACH ROW BEGIN SELECT "record"("new"."title"); SELECT "record"(upper("new"."title")); END"#)
        try await db.write { conn in
            try trigger.execute(conn)
            try Reminder.insert {
                Reminder(id: 10, listID: 1, title: "Standup")
                Reminder(id: 11, listID: 2, title: "Retro")
            }.execute(conn)
        }
        #expect(log.values == ["Standup", "STANDUP", "Retro", "RETRO"])

        let direct = DatabaseFunctionMacroShapes.recordOne(log, "by hand")
        #expect(direct.sql == #"SELECT "record"(?)"#)
        try await db.write { conn in try direct.execute(conn) }
        #expect(log.values.last == "by hand")
    }

    /// The function keeps its object weakly: once it is gone, a call fails the statement.
    @Test func aMethodOfADeallocatedInstance() async throws {
        var instance: CallLog? = CallLog()
        weak let released = instance
        let record = try #require(instance).$record
        var options = BoutiqueDB.Options()
        options.prepareDatabase { conn in try conn.add(function: record) }
        let db = try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: RemindersMigrations.plan, options: options)
        try await db.write { conn in try conn.execute("SELECT record('kept')") }
        #expect(instance?.values == ["kept"])
        instance = nil
        #expect(released == nil)
        let error = await #expect(throws: BoutiqueError.self) {
            try await db.write { conn in try conn.execute("SELECT record('lost')") }
        }
        #expect("\(String(describing: error))".contains("record: the instance whose method the function calls has been deallocated"))
    }

    /// `isDeterministic: true` lets SQLite use the function in an index; others are refused there.
    @Test func determinism() async throws {
        let db = try await open()
        #expect($shout.isDeterministic && !$summary.isDeterministic)
        try await db.write { conn in try conn.execute("CREATE INDEX reminderShout ON reminder(shout(title))") }
        let error = await #expect(throws: BoutiqueError.self) {
            try await db.write { conn in try conn.execute("CREATE INDEX reminderSummary ON reminder(summary(title, dueDate, isDone, NULL))") }
        }
        #expect("\(String(describing: error))".contains("non-deterministic functions prohibited in index expressions"))
    }

    @Test func removingAFunction() async throws {
        var options = BoutiqueDB.Options()
        options.prepareDatabase { conn in
            try conn.add(function: $mode)
            try conn.remove(function: $mode)
        }
        let db = try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: RemindersMigrations.plan, options: options)
        let error = await #expect(throws: BoutiqueError.self) {
            try await db.read { conn in try conn.fetchValue("SELECT mode(1)") }
        }
        #expect("\(String(describing: error))".contains("no such function: mode"))
    }
}
