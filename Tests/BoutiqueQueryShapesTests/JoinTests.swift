import BoutiqueDB
import BoutiqueQueryShapes
import Foundation
import Testing

/// Joins of three to five tables, inner and left: the SQL they render and the rows they return.
@Suite @MainActor struct JoinTests {
    @Test func threeTablesFilteredOrderedAndSelectedOverEveryTable() async throws {
        let db = try await openRemindersDatabase()
        let query = JoinShapes.remindersWithTags()
        #expect(
            query.sql
                == #"SELECT "reminder"."title", "tag"."name" FROM "reminder" JOIN "reminderTag" ON ("reminder"."id" = "reminderTag"."reminderID") JOIN "tag" ON ("reminderTag"."tagID" = "tag"."id") WHERE ((NOT "reminder"."isDone") OR ("tag"."name" = ?)) ORDER BY "reminder"."title", "tag"."name" DESC"#
        )
        #expect(query.bindings == [.text("home")])
        let rows = try await db.read { conn in try query.fetchAll(conn) }
        #expect(rows.map { "\($0.0)/\($0.1)" } == ["Email boss/work", "Groceries/home", "Groceries/errand", "Haircut/home"])
    }

    @Test func aTableJoinedWithItselfUnderAnAlias() async throws {
        let db = try await openRemindersDatabase()
        let query = JoinShapes.reminderSiblings()
        #expect(
            query.sql
                == #"SELECT "reminder"."title", "sibling"."title" FROM "reminder" JOIN "reminder" AS "sibling" ON (("reminder"."listID" = "sibling"."listID") AND ("reminder"."id" < "sibling"."id")) WHERE (NOT "sibling"."isDone") ORDER BY "reminder"."id", "sibling"."id""#
        )
        let rows = try await db.read { conn in try query.fetchAll(conn) }
        let all = try await db.read { conn in try Reminder.all.fetchAll(conn) }
        var expected: [String] = []
        for mine in all.sorted(by: { $0.id < $1.id }) {
            for sibling in all.sorted(by: { $0.id < $1.id }) where sibling.listID == mine.listID && mine.id < sibling.id && !sibling.isDone {
                expected.append("\(mine.title)/\(sibling.title)")
            }
        }
        #expect(!expected.isEmpty)
        #expect(rows.map { "\($0.0)/\($0.1)" } == expected)
    }

    @Test func wholeRowsOfThreeTablesWithTheJoinedTablesFilter() async throws {
        let db = try await openRemindersDatabase()
        let query = JoinShapes.taggedReminders(named: "home")
        #expect(query.sql.hasSuffix(#"FROM "reminder" JOIN "reminderTag" ON ("reminder"."id" = "reminderTag"."reminderID") JOIN "tag" ON ("reminderTag"."tagID" = "tag"."id") WHERE ("tag"."name" = ?) ORDER BY "reminder"."id""#))
        let rows = try await db.read { conn in try query.fetchAll(conn.connection) }
        #expect(rows.map(\.0.title) == ["Groceries", "Haircut"])
        #expect(rows.map(\.1.id) == [1, 3])
        #expect(rows.map(\.2) == [Tag(id: 1, name: "home", uses: 2), Tag(id: 1, name: "home", uses: 2)])
    }

    @Test func fiveTablesEightValuesFourKeys() async throws {
        let db = try await openRemindersDatabase()
        let query = JoinShapes.everything()
        #expect(
            query.sql
                == #"SELECT "remindersList"."title", "reminder"."title", "tag"."name", "member"."name", "reminderTag"."id", "reminder"."priority", "reminder"."dueDate", "reminder"."isDone" FROM "remindersList" JOIN "reminder" ON ("remindersList"."id" = "reminder"."listID") JOIN "reminderTag" ON ("reminder"."id" = "reminderTag"."reminderID") JOIN "tag" ON ("reminderTag"."tagID" = "tag"."id") JOIN "member" ON ("reminder"."assigneeID" = "member"."id") WHERE (((("remindersList"."title" <> ?) AND (NOT "reminder"."isDone")) AND ("tag"."uses" > ?)) AND (length("member"."name") > ?)) ORDER BY "remindersList"."title", "member"."name" DESC, "tag"."name", "reminder"."id""#
        )
        #expect(query.bindings == [.text("Empty"), .integer(0), .integer(0)])
        let rows = try await db.read { conn in try query.fetchAll(conn) }
        #expect(rows.count == 3)
        #expect(rows.map { "\($0.0)|\($0.1)|\($0.2)|\($0.3)|\($0.4)" } == [
            "Home|Groceries|errand|Ada|2", "Home|Groceries|home|Ada|1", "Work|Email boss|work|Grace|4",
        ])
        #expect(rows.map(\.5) == [.high, .high, .low])
        #expect(rows.map(\.6) == [nil, nil, Date(timeIntervalSince1970: 100)])
        #expect(rows.map(\.7) == [false, false, false])
    }

    @Test func fiveTablesLeftJoinedKeepEveryListWithNilWhereNothingMatches() async throws {
        let db = try await openRemindersDatabase()
        let query = JoinShapes.everyList()
        #expect(query.sql.contains(#"FROM "remindersList" LEFT JOIN "reminder" ON ("remindersList"."id" = "reminder"."listID") LEFT JOIN "reminderTag" ON ("reminder"."id" = "reminderTag"."reminderID") LEFT JOIN "tag" ON ("reminderTag"."tagID" = "tag"."id") LEFT JOIN "member" ON ("reminder"."assigneeID" = "member"."id") ORDER BY "remindersList"."id", "reminder"."id", "tag"."id", "member"."id""#))
        let rows = try await db.read { conn in try query.fetchAll(conn) }
        let described = rows.map { row in
            [row.0.title, row.1?.title ?? "-", row.2.map { "\($0.id)" } ?? "-", row.3?.name ?? "-", row.4?.name ?? "-"]
                .joined(separator: "|")
        }
        #expect(described == [
            "Home|Groceries|1|home|Ada", "Home|Groceries|2|errand|Ada", "Home|Haircut|3|home|-",
            "Work|Email boss|4|work|Grace", "Work||-|-|-", "Empty|-|-|-|-",
        ])
    }

    @Test func leftJoinsGroupedAndFilteredOverTheJoinedRows() async throws {
        let db = try await openRemindersDatabase()
        let query = JoinShapes.reminderCounts()
        #expect(query.sql.hasSuffix(#"GROUP BY "remindersList"."id" HAVING (count("reminder"."id") < ?) ORDER BY "remindersList"."title""#))
        let rows = try await db.read { conn in try query.fetchAll(conn) }
        #expect(rows.map { "\($0.0) \($0.1) \($0.2)" } == ["Empty 0 0", "Home 2 1", "Work 2 1"])
    }

    @Test func joinsOfSelectsThatChoseATupleReadTheChosenValues() async throws {
        let db = try await openRemindersDatabase()
        let titles = JoinShapes.openReminderTitlesInList(named: "Work")
        #expect(titles.sql == #"SELECT "reminder"."id", "reminder"."title" FROM "reminder" JOIN "remindersList" ON ("reminder"."listID" = "remindersList"."id") WHERE ("remindersList"."title" = ?) AND (NOT "reminder"."isDone") ORDER BY "reminder"."id""#)
        let rows = try await db.read { conn in try titles.fetchAll(conn) }
        #expect(rows.map(\.0) == [3, 4])
        #expect(rows.map(\.1) == ["Email boss", ""])

        let both = JoinShapes.listTitlesWithReminderTitles()
        #expect(both.sql.hasPrefix(#"SELECT "remindersList"."title", "reminder"."title", "reminder"."isDone" FROM "remindersList" JOIN "reminder""#))
        let described = try await db.read { conn in try both.fetchAll(conn) }.map { "\($0.0)|\($0.1)|\($0.2)" }
        #expect(described == ["Home|Groceries|false", "Home|Haircut|true", "Work|Email boss|false", "Work||false"])

        let tuples = JoinShapes.listsAndRemindersBothChosen()
        #expect(tuples.sql.hasPrefix(#"SELECT "remindersList"."id", "remindersList"."title", "reminder"."title", "reminder"."isDone" FROM "remindersList" JOIN "reminder""#))
        let fourEach = try await db.read { conn in try tuples.fetchAll(conn) }.map { "\($0.0)|\($0.1)|\($0.2)|\($0.3)" }
        #expect(fourEach == ["1|Home|Groceries|false", "1|Home|Haircut|true", "2|Work|Email boss|false", "2|Work||false"])
    }

    @Test func listsWithTheirRemindersAsJSON() async throws {
        let db = try await openRemindersDatabase()
        let rows = try await db.read { conn in try JSONObjectShapes.listsWithReminders().fetchAll(conn) }
        let reminders = try await db.read { conn in try Reminder.all.fetchAll(conn) }
        let lists = try await db.read { conn in try RemindersList.all.fetchAll(conn) }
        #expect(rows.map(\.list.id).sorted() == lists.map(\.id).sorted())
        for row in rows {
            #expect(row.reminders.sorted { $0.id < $1.id } == reminders.filter { $0.listID == row.list.id })
        }
        let objects = try await db.read { conn in try JSONObjectShapes.openReminderObjects().fetchAll(conn) }
        #expect(!objects.isEmpty)
        #expect(objects.allSatisfy { pair in reminders.contains(pair.1) && pair.0 == pair.1.title && !pair.1.isDone })
    }
}

