import BoutiqueDB
import BoutiqueQueryShapes
import Foundation
import Testing

/// Optional columns take `nil`, literals, enum cases and plain values, in updates, drafts and upserts.
@Suite @MainActor struct OptionalAssignmentTests {
    @Test func nilBindsNull() async throws {
        let db = try await openRemindersDatabase()
        let update = UpdateShapes.clearDueDate(of: 3)
        #expect(update.sql == #"UPDATE "reminder" SET "dueDate" = ? WHERE ("reminder"."id" = ?)"#)
        #expect(update.bindings == [.null, .integer(3)])
        try await db.write { conn in try update.execute(conn) }
        #expect(try await db.read { conn in try Reminder.find(3).fetchOne(conn) }?.dueDate == nil)
    }

    @Test func enumCasesWithAndWithoutTheirTypeBindTheirRawValue() async throws {
        let db = try await openRemindersDatabase()
        #expect(UpdateShapes.prioritize(4).bindings == [.integer(3), .integer(4)])
        #expect(UpdateShapes.deprioritize(1).bindings == [.integer(1), .integer(1)])
        try await db.write { conn in
            try UpdateShapes.prioritize(4).execute(conn)
            try UpdateShapes.deprioritize(1).execute(conn)
        }
        let priorities = try await db.read { conn in try Reminder.order { $0.id }.select { $0.priority }.fetchAll(conn) }
        #expect(priorities == [.low, nil, .low, .high])
    }

    @Test func plainValuesOfTheWrappedTypeAndLiterals() async throws {
        let db = try await openRemindersDatabase()
        let date = Date(timeIntervalSince1970: 500)
        let schedule = UpdateShapes.schedule(2, at: date, minutes: 45)
        #expect(schedule.sql == #"UPDATE "reminder" SET "dueDate" = ?, "estimatedMinutes" = ? WHERE ("reminder"."id" = ?)"#)
        #expect(schedule.bindings == [.real(500), .integer(45), .integer(2)])
        let annotate = UpdateShapes.annotate(1)
        #expect(
            annotate.sql
                == #"UPDATE "reminder" SET "notes" = ?, "estimatedMinutes" = ?, "assigneeID" = ?, "title" = upper("title"), "isDone" = (NOT "isDone") WHERE ("reminder"."id" = ?)"#
        )
        #expect(annotate.bindings == [.text("Call first"), .integer(15), .null, .integer(1)])
        try await db.write { conn in
            try schedule.execute(conn)
            try annotate.execute(conn)
        }
        let rows = try await db.read { conn in try Reminder.find([1, 2]).order { $0.id }.fetchAll(conn) }
        #expect(rows.map(\.dueDate) == [nil, date])
        #expect(rows.map(\.estimatedMinutes) == [15, 45])
        #expect(rows[0] == Reminder(id: 1, listID: 1, title: "GROCERIES", notes: "Call first", priority: .high, estimatedMinutes: 15, isDone: true))
    }

    @Test func arithmeticOnTheColumnsBeingUpdated() async throws {
        let db = try await openRemindersDatabase()
        let update = UpdateShapes.lengthen(1)
        #expect(update.sql == #"UPDATE "reminder" SET "estimatedMinutes" = (("estimatedMinutes" * ?) + ?), "listID" = ("listID" + ?) WHERE ("reminder"."id" = ?)"#)
        try await db.write { conn in try update.execute(conn) }
        let row = try await db.read { conn in try Reminder.find(1).fetchOne(conn) }
        #expect(row?.estimatedMinutes == 65)
        #expect(row?.listID == 2)
    }

    @Test func expressionsOfTheWrappedType() async throws {
        let db = try await openRemindersDatabase()
        let now = Date(timeIntervalSince1970: 900)
        let update = UpdateShapes.dueNowUnlessDue(3, now: now)
        #expect(update.sql == #"UPDATE "reminder" SET "dueDate" = coalesce("dueDate", ?), "estimatedMinutes" = "listID" WHERE ("reminder"."id" = ?)"#)
        try await db.write { conn in
            try update.execute(conn)
            try UpdateShapes.dueNowUnlessDue(1, now: now).execute(conn)
        }
        let rows = try await db.read { conn in try Reminder.find([1, 3]).order { $0.id }.fetchAll(conn) }
        #expect(rows.map(\.dueDate) == [now, Date(timeIntervalSince1970: 100)])
        #expect(rows.map(\.estimatedMinutes) == [1, 2])
    }

    @Test func optionalExpressionsOfTheSameType() async throws {
        let db = try await openRemindersDatabase()
        try await db.write { conn in
            try conn.execute("UPDATE remindersList SET color = 'BLUE' WHERE id = 1")
            try UpdateShapes.copyNotesToColor().execute(conn)
        }
        let colors = try await db.read { conn in try RemindersList.order { $0.id }.select { $0.color }.fetchAll(conn) }
        #expect(colors == ["blue", nil, nil])
    }

    @Test func draftsAndUpsertsTakeNilEnumCasesAndValues() async throws {
        let db = try await openRemindersDatabase()
        let drafts = DraftShapes.insertDrafts()
        #expect(drafts.bindings.count == 18)
        let first: [DatabaseValue] = [.null, .integer(2), .text("Plan offsite"), .null, .null, .integer(2), .null, .integer(0), .null]
        #expect(Array(drafts.bindings.prefix(9)) == first)
        let upsert = DraftShapes.upsertByKey()
        #expect(upsert.sql.hasSuffix(#"ON CONFLICT ("id") DO UPDATE SET "listID" = excluded."listID", "title" = excluded."title", "notes" = excluded."notes", "dueDate" = excluded."dueDate", "priority" = excluded."priority", "estimatedMinutes" = excluded."estimatedMinutes", "isDone" = excluded."isDone", "assigneeID" = excluded."assigneeID""#))
        try await db.write { conn in
            try drafts.execute(conn)
            try upsert.execute(conn)
        }
        let added = try await db.read { conn in try Reminder.where { $0.id > 4 }.order { $0.id }.fetchAll(conn) }
        #expect(added.map(\.title) == ["Plan offsite", "Book room"])
        #expect(added.map(\.priority) == [.medium, .high])
        #expect(added.map(\.estimatedMinutes) == [nil, 10])
        let haircut = try await db.read { conn in try Reminder.find(2).fetchOne(conn) }
        #expect(haircut == Reminder(id: 2, listID: 1, title: "Haircut", priority: .low))
    }
}
