import BoutiqueQueries
import BoutiqueSQLite
import Testing

@Suite("Select")
struct SelectTests {
    let db: Connection
    init() throws { db = try makeRemindersDatabase() }

    @Test func allRendersEveryColumnAndFetchesEveryRow() throws {
        let query = Reminder.all
        #expect(query.sql == #"SELECT "reminder"."id", "reminder"."title", "reminder"."isDone", "reminder"."priority", "reminder"."listID" FROM "reminder""#)
        let rows = try query.fetchAll(db)
        #expect(rows.map(\.id) == [1, 2, 3, 4, 5])
        #expect(rows[1] == Reminder(id: 2, title: "Haircut", isDone: true, priority: nil, listID: 1))
    }

    @Test func whereBindsValuesAndChainsWithAnd() throws {
        let query = Reminder.where { $0.isDone == false }.where { $0.listID == 1 }
        #expect(query.sql.hasSuffix(#"WHERE ("reminder"."isDone" = ?) AND ("reminder"."listID" = ?)"#))
        #expect(query.bindings == [.integer(0), .integer(1)])
        #expect(try query.fetchAll(db).map(\.title) == ["Groceries"])
    }

    @Test func findByPrimaryKey() throws {
        let one = Reminder.find(3)
        #expect(one.sql.hasSuffix(#"WHERE ("reminder"."id" = ?)"#))
        #expect(try one.fetchOne(db)?.title == "Email boss")
        #expect(try Reminder.find(99).fetchOne(db) == nil)
        let many = Reminder.find([1, 4])
        #expect(many.sql.hasSuffix(#"WHERE "reminder"."id" IN (?, ?)"#))
        #expect(try many.fetchAll(db).map(\.id) == [1, 4])
    }

    @Test func selectSingleColumnAndTuples() throws {
        let titles = Reminder.order { $0.title }.select { $0.title }
        #expect(titles.sql == #"SELECT "reminder"."title" FROM "reminder" ORDER BY "reminder"."title""#)
        #expect(try titles.fetchAll(db) == ["Email boss", "Groceries", "Haircut", "Laundry", "Plan offsite"])

        let pairs = Reminder.where { $0.listID == 2 }.order { $0.id }.select { ($0.id, $0.priority) }
        #expect(pairs.sql == #"SELECT "reminder"."id", "reminder"."priority" FROM "reminder" WHERE ("reminder"."listID" = ?) ORDER BY "reminder"."id""#)
        let fetched = try pairs.fetchAll(db)
        #expect(fetched.map(\.0) == [3, 4])
        #expect(fetched.map(\.1) == [3, 1])

        let triples = Reminder.where { $0.id == 2 }.select { ($0.title, $0.isDone, $0.priority) }
        let triple = try #require(try triples.fetchOne(db))
        #expect(triple.0 == "Haircut" && triple.1 == true && triple.2 == nil)
    }

    @Test func orderAscDescNullsAndSeveralKeys() throws {
        let query = Reminder.all.order { ($0.priority.desc(nulls: .last), $0.title.asc()) }.select { $0.id }
        #expect(query.sql == #"SELECT "reminder"."id" FROM "reminder" ORDER BY "reminder"."priority" DESC NULLS LAST, "reminder"."title" ASC"#)
        #expect(try query.fetchAll(db) == [3, 1, 5, 4, 2])

        let nullsFirst = Reminder.order { $0.priority.asc(nulls: .first) }.order { $0.id.desc() }.select { $0.id }
        #expect(nullsFirst.sql.hasSuffix(#"ORDER BY "reminder"."priority" ASC NULLS FIRST, "reminder"."id" DESC"#))
        #expect(try nullsFirst.fetchAll(db) == [2, 4, 5, 1, 3])

        let three = Reminder.order { ($0.isDone, $0.listID.desc(), $0.id) }.select { $0.id }
        #expect(try three.fetchAll(db) == [3, 4, 1, 2, 5])
    }

    @Test func limitAndOffsetAreBound() throws {
        let query = Reminder.order { $0.id }.limit(2, offset: 1).select { $0.id }
        #expect(query.sql == #"SELECT "reminder"."id" FROM "reminder" ORDER BY "reminder"."id" LIMIT ? OFFSET ?"#)
        #expect(query.bindings == [.integer(2), .integer(1)])
        #expect(try query.fetchAll(db) == [2, 3])
        #expect(try Reminder.limit(1).fetchAll(db).count == 1)
    }

    @Test func distinctAndCount() throws {
        let lists = Reminder.all.select { $0.listID }.distinct().order { $0.listID }
        #expect(lists.sql == #"SELECT DISTINCT "reminder"."listID" FROM "reminder" ORDER BY "reminder"."listID""#)
        #expect(try lists.fetchAll(db) == [1, 2])

        #expect(Reminder.count().sql == #"SELECT count(*) FROM "reminder""#)
        #expect(try Reminder.count().fetchOne(db) == 5)
        let open = Reminder.where { !$0.isDone }
        #expect(open.count().sql == #"SELECT count(*) FROM (SELECT "reminder"."id", "reminder"."title", "reminder"."isDone", "reminder"."priority", "reminder"."listID" FROM "reminder" WHERE (NOT "reminder"."isDone"))"#)
        #expect(try open.fetchCount(db) == 3)
    }

    @Test func groupHavingAndAggregates() throws {
        let perList = Reminder.all
            .group { $0.listID }
            .having { $0.id.count() > 1 }
            .order { $0.listID }
            .select { ($0.listID, $0.id.count(), $0.priority.sum()) }
        #expect(perList.sql == #"SELECT "reminder"."listID", count("reminder"."id"), sum("reminder"."priority") FROM "reminder" GROUP BY "reminder"."listID" HAVING (count("reminder"."id") > ?) ORDER BY "reminder"."listID""#)
        let rows = try perList.fetchAll(db)
        #expect(rows.map(\.0) == [1, 2])
        #expect(rows.map(\.1) == [3, 2])
        #expect(rows.map(\.2) == [4, 4])

        let stats = Reminder.all.select { ($0.priority.avg(), $0.priority.max(), $0.priority.min()) }
        let row = try #require(try stats.fetchOne(db))
        #expect(row.0 == 2.0 && row.1 == 3 && row.2 == 1)

        let concatenated = Reminder.where { $0.listID == 2 }.select { $0.title.groupConcat(" & ") }
        #expect(try concatenated.fetchOne(db) == "Email boss & Plan offsite")

        let none = Reminder.where { $0.id > 100 }.select { $0.priority.sum() }
        #expect(try none.fetchOne(db) == .some(nil))
        #expect(try Reminder.all.select { $0.priority.count(distinct: true) }.fetchOne(db) == 3)
        #expect(try Reminder.where { $0.id > 100 }.select { $0.priority.total() }.fetchOne(db) == 0)
    }
}
