import BoutiqueDB
import BoutiqueQueryShapes
import Foundation
import Testing

/// Wide selects, several ordering keys, aggregates of optional columns, collations and text functions.
@Suite @MainActor struct SelectShapeTests {
    @Test func eightValuesWithoutASelectionType() async throws {
        let db = try await openRemindersDatabase()
        let query = SelectShapes.eightColumns()
        #expect(
            query.sql
                == #"SELECT "reminder"."id", "reminder"."listID", "reminder"."title", "reminder"."notes", "reminder"."dueDate", "reminder"."priority", "reminder"."estimatedMinutes", "reminder"."isDone" FROM "reminder" ORDER BY "reminder"."isDone", "reminder"."priority" DESC, "reminder"."listID", "reminder"."id""#
        )
        let rows = try await db.read { conn in try query.fetchAll(conn) }
        #expect(rows.map(\.0) == [1, 3, 4, 2])
        #expect(rows[1].2 == "Email boss" && rows[1].4 == Date(timeIntervalSince1970: 100) && rows[1].5 == .low)
        #expect(rows[0].3 == "Milk" && rows[0].6 == 30 && rows[3].7)
    }

    @Test func fourOrderingKeys() async throws {
        let db = try await openRemindersDatabase()
        let query = SelectShapes.ordered()
        #expect(query.sql.hasSuffix(#"ORDER BY "reminder"."isDone", "reminder"."listID" DESC, "reminder"."priority" DESC NULLS LAST, "reminder"."title""#))
        #expect(try await db.read { conn in try query.fetchAll(conn) }.map(\.id) == [3, 4, 1, 2])
    }

    @Test func aggregatesOfOptionalColumnsAreOptionalOnce() async throws {
        let db = try await openRemindersDatabase()
        #expect(SelectShapes.latestDueDate().sql == #"SELECT max("reminder"."dueDate") FROM "reminder""#)
        #expect(SelectShapes.totalMinutes().sql == #"SELECT sum("reminder"."estimatedMinutes") FROM "reminder""#)
        let latest: Date?? = try await db.read { conn in try SelectShapes.latestDueDate().fetchOne(conn) }
        #expect(latest == .some(Date(timeIntervalSince1970: 100)))
        #expect(try await db.read { conn in try SelectShapes.lowestPriority().fetchOne(conn) } == .some(.low))
        #expect(try await db.read { conn in try SelectShapes.totalMinutes().fetchOne(conn) } == .some(35))
        #expect(try await db.read { conn in try SelectShapes.longestTitle().fetchOne(conn) } == .some(10))
        let none: Int?? = try await db.read { conn in
            try Reminder.where { $0.id > 100 }.select { $0.estimatedMinutes.sum() }.fetchOne(conn)
        }
        #expect(none == .some(nil), "one row holding NULL for no rows")
    }

    @Test func collations() async throws {
        let db = try await openRemindersDatabase()
        let named = SelectShapes.tag(named: "HOME")
        #expect(named.sql == #"SELECT "tag"."id", "tag"."name", "tag"."uses" FROM "tag" WHERE (("tag"."name" COLLATE NOCASE) = ?)"#)
        #expect(try await db.read { conn in try named.fetchAll(conn) }.map(\.id) == [1])
        let exact = Tag.where { $0.name.collate(.binary) == "HOME" }
        #expect(try await db.read { conn in try exact.fetchAll(conn) }.isEmpty)
        let padded = Tag.where { $0.name.collate(.rtrim) == "home   " }
        #expect(try await db.read { conn in try padded.fetchAll(conn) }.map(\.id) == [1])
        let sorted = SelectShapes.tagsByName()
        #expect(sorted.sql.hasSuffix(#"ORDER BY ("tag"."name" COLLATE NOCASE), ("tag"."name" COLLATE BINARY), ("tag"."name" COLLATE RTRIM)"#))
        try await db.write { conn in try Tag.insert { Tag(id: 4, name: "Apple") }.execute(conn) }
        #expect(try await db.read { conn in try sorted.fetchAll(conn) } == ["Apple", "errand", "home", "work"])
    }

    @Test func emptyTextAndTextFunctionsOfOptionalColumns() async throws {
        let db = try await openRemindersDatabase()
        #expect(SelectShapes.untitled().sql == #"SELECT "reminder"."id" FROM "reminder" WHERE ("reminder"."title" = '')"#)
        #expect(try await db.read { conn in try SelectShapes.untitled().fetchAll(conn) } == [4])
        let notes = SelectShapes.notesShapes()
        #expect(notes.sql == #"SELECT "reminder"."id", length("reminder"."notes"), lower("reminder"."notes"), upper("reminder"."notes") FROM "reminder" WHERE (NOT ("reminder"."notes" = '')) ORDER BY "reminder"."id""#)
        let rows = try await db.read { conn in try notes.fetchAll(conn) }
        #expect(rows.map { "\($0.0) \($0.1 ?? -1) \($0.2 ?? "-") \($0.3 ?? "-")" } == ["1 4 milk MILK"])
        let lengths: [Int?] = try await db.read { conn in try Reminder.order { $0.id }.select { $0.notes.length() }.fetchAll(conn) }
        #expect(lengths == [4, nil, nil, 0])
    }
}
