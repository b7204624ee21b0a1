import BoutiqueQueries
import BoutiqueSQLite
import Testing

@Suite("Insert, upsert, update, delete, returning")
struct WriteTests {
    let db: Connection
    init() throws { db = try makeRemindersDatabase() }

    @Test func insertOneRow() throws {
        let insert = Reminder.insert { Reminder(id: 10, title: "New", priority: 1, listID: 2) }
        #expect(insert.sql == #"INSERT INTO "reminder" ("id", "title", "isDone", "priority", "listID") VALUES (?, ?, ?, ?, ?)"#)
        #expect(insert.bindings == [.integer(10), .text("New"), .integer(0), .integer(1), .integer(2)])
        try insert.execute(db)
        #expect(try Reminder.find(10).fetchOne(db) == Reminder(id: 10, title: "New", priority: 1, listID: 2))
    }

    @Test func insertManyRowsWithDraftsLoopsAndConditions() throws {
        let titles = ["A", "B", "C"]
        let includeExtra = true
        let insert = Reminder.insert {
            Reminder.Draft(title: "First", listID: 1)
            for title in titles { Reminder.Draft(title: title, listID: 2) }
            if includeExtra { Reminder.Draft(title: "Extra", listID: 3) } else { Reminder.Draft(title: "Never", listID: 3) }
        }
        #expect(insert.rows.count == 5)
        #expect(insert.sql.hasSuffix("VALUES (?, ?, ?, ?, ?), (?, ?, ?, ?, ?), (?, ?, ?, ?, ?), (?, ?, ?, ?, ?), (?, ?, ?, ?, ?)"))
        try insert.execute(db)
        let added = try Reminder.where { $0.id > 5 }.order { $0.id }.fetchAll(db)
        #expect(added.map(\.title) == ["First", "A", "B", "C", "Extra"])
        #expect(added.map(\.id) == [6, 7, 8, 9, 10])
    }

    @Test func multiRowInsertIsAtomic() throws {
        let insert = Reminder.insert {
            Reminder(id: 20, title: "ok", listID: 1)
            Reminder(id: 1, title: "duplicate key", listID: 1)
        }
        #expect(throws: BoutiqueError.self) { try insert.execute(db) }
        #expect(try Reminder.find(20).fetchOne(db) == nil)
        #expect(try Reminder.count().fetchOne(db) == 5)
    }

    @Test func insertOrIgnoreAndOrReplace() throws {
        try Reminder.insert { Reminder(id: 1, title: "ignored", listID: 1) }.orIgnore().execute(db)
        #expect(try Reminder.find(1).fetchOne(db)?.title == "Groceries")
        let replace = Reminder.insert { Reminder(id: 1, title: "replaced", listID: 1) }.orReplace()
        #expect(replace.sql.hasPrefix("INSERT OR REPLACE INTO"))
        try replace.execute(db)
        #expect(try Reminder.find(1).fetchOne(db)?.title == "replaced")
    }

    /// Insert texts are built once and kept: each table, conflict clause and row count keeps its own.
    @Test func insertTextsAreKeptApartByTableConflictAndRowCount() {
        let row = Reminder(id: 1, title: "a", listID: 1)
        let texts = (0..<2).map { _ in
            [
                Reminder.insert([row]).sql, Reminder.insert([row, row]).sql, Reminder.insert([row]).orIgnore().sql,
                Reminder.insert([row]).orReplace().sql, Reminder.upsert { row }.sql,
                RemindersList.insert([RemindersList(id: 1, name: "l")]).sql,
            ]
        }
        #expect(texts[0] == texts[1])
        #expect(Set(texts[0]).count == texts[0].count)
        let columns = #"("id", "title", "isDone", "priority", "listID")"#
        #expect(texts[0][1] == #"INSERT INTO "reminder" "# + columns + " VALUES (?, ?, ?, ?, ?), (?, ?, ?, ?, ?)")
        #expect(texts[0][2] == #"INSERT OR IGNORE INTO "reminder" "# + columns + " VALUES (?, ?, ?, ?, ?)")
        #expect(texts[0][5].hasPrefix(#"INSERT INTO "remindersList" ("#))
        // Large inserts are built each time, not kept; the text is the same.
        let twenty = Reminder.insert(Array(repeating: row, count: 20)).sql
        #expect(twenty == #"INSERT INTO "reminder" "# + columns + " VALUES "
            + Array(repeating: "(?, ?, ?, ?, ?)", count: 20).joined(separator: ", "))
    }

    @Test func upsertUpdatesEveryNonKeyColumn() throws {
        let upsert = Reminder.upsert { Reminder(id: 2, title: "Haircut at 5", isDone: false, priority: 3, listID: 2) }
        #expect(upsert.sql == #"INSERT INTO "reminder" ("id", "title", "isDone", "priority", "listID") VALUES (?, ?, ?, ?, ?) ON CONFLICT ("id") DO UPDATE SET "title" = excluded."title", "isDone" = excluded."isDone", "priority" = excluded."priority", "listID" = excluded."listID""#)
        try upsert.execute(db)
        #expect(try Reminder.find(2).fetchOne(db) == Reminder(id: 2, title: "Haircut at 5", isDone: false, priority: 3, listID: 2))
        try Reminder.upsert { Reminder(id: 30, title: "Fresh", listID: 1) }.execute(db)
        #expect(try Reminder.count().fetchOne(db) == 6)
    }

    @Test func updateWithAssignmentsAndFilter() throws {
        let update = Reminder.update {
            $0.title = "Renamed"
            $0.priority += 1
            $0.isDone = !$0.isDone
        }.where { $0.id == 1 }
        #expect(update.sql == #"UPDATE "reminder" SET "title" = ?, "priority" = ("priority" + ?), "isDone" = (NOT "isDone") WHERE ("reminder"."id" = ?)"#)
        try update.execute(db)
        #expect(try Reminder.find(1).fetchOne(db) == Reminder(id: 1, title: "Renamed", isDone: true, priority: 3, listID: 1))

        try Reminder.where { $0.listID == 2 }.update { $0.priority = Int?.none }.execute(db)
        #expect(try Reminder.where { $0.priority.is(nil) }.fetchCount(db) == 3)
        try Reminder.update { $0.title = $0.title.upper() }.where { $0.id == 3 }.execute(db)
        #expect(try Reminder.find(3).fetchOne(db)?.title == "EMAIL BOSS")
    }

    @Test func updateWholeRowByPrimaryKey() throws {
        var reminder = try #require(try Reminder.find(4).fetchOne(db))
        reminder.title = "Offsite booked"
        reminder.isDone = true
        let update = Reminder.update(reminder)
        #expect(update.sql == #"UPDATE "reminder" SET "title" = ?, "isDone" = ?, "priority" = ?, "listID" = ? WHERE "reminder"."id" = ?"#)
        try update.execute(db)
        #expect(try Reminder.find(4).fetchOne(db) == reminder)
        #expect(db.changes == 1)
    }

    @Test func deleteFilteredAndByRow() throws {
        let delete = Reminder.where { $0.isDone }.delete()
        #expect(delete.sql == #"DELETE FROM "reminder" WHERE "reminder"."isDone""#)
        try delete.execute(db)
        #expect(try Reminder.count().fetchOne(db) == 3)
        let row = try #require(try Reminder.find(1).fetchOne(db))
        #expect(Reminder.delete(row).sql == #"DELETE FROM "reminder" WHERE "reminder"."id" = ?"#)
        try Reminder.delete(row).execute(db)
        #expect(try Reminder.all.select { $0.id }.order { $0.id }.fetchAll(db) == [3, 4])
        try Reminder.delete().where { $0.id == 3 }.execute(db)
        try Reminder.delete().execute(db)
        #expect(try Reminder.count().fetchOne(db) == 0)
    }

    @Test func returning() throws {
        let insert = Reminder.insert { Reminder.Draft(title: "Returned", listID: 1) }.returning { $0.id }
        #expect(insert.sql.hasSuffix(#"RETURNING "id""#))
        #expect(try insert.fetchAll(db) == [6])
        let updated = try Reminder.update { $0.isDone = true }.where { $0.listID == 2 }.returning { ($0.id, $0.title) }.fetchAll(db)
        #expect(updated.map(\.0).sorted() == [3, 4])
        let deleted = try Reminder.where { $0.id == 6 }.delete().returning().fetchAll(db)
        #expect(deleted == [Reminder(id: 6, title: "Returned", listID: 1)])
    }
}
