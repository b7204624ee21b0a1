import BoutiqueQueries
import BoutiqueSQLite
import Foundation
import Testing

/// The listings of StructuredQueries' "Selects" article, one by one in its spelling, over a few lists
/// of reminders, the people they are assigned to and who referred them: chosen columns, `distinct`,
/// selections, joins, an aliased self-join, filters, scopes, groups, orders,
/// limits and compound selects. Each test shows the SQL and the rows.
@Suite("Article: select statements, listing by listing")
struct SelectStatementsListingsArticleTests {
    @Table("remindersLists")
    struct RemindersList: Equatable {
        let id: Int
        var title = ""
    }

    @Table("reminders")
    struct Reminder: Equatable {
        let id: Int
        var title = ""
        var isCompleted = false
        var priority: Int?
        var isFlagged = false
        var date: Date
        var remindersListID: Int
        var assignedUserID: Int?
    }

    @Table("users")
    struct User: Equatable {
        let id: Int
        var name = ""
        var referrerID: Int?
    }

    enum Referrer: AliasName {}

    @Selection
    struct ReminderResult: Equatable {
        let title: String
        let isCompleted: Bool
    }

    static func database() throws -> Connection {
        let db = try Connection(path: ":memory:")
        try db.execute("""
            CREATE TABLE "remindersLists" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL DEFAULT '');
            CREATE TABLE "reminders" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL DEFAULT '',
                "isCompleted" INTEGER NOT NULL DEFAULT 0, "priority" INTEGER, "isFlagged" INTEGER NOT NULL DEFAULT 0,
                "date" REAL NOT NULL, "remindersListID" INTEGER NOT NULL, "assignedUserID" INTEGER);
            CREATE TABLE "users" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL DEFAULT '', "referrerID" INTEGER);
            INSERT INTO "remindersLists" VALUES (1, 'Home'), (2, 'Work'), (3, 'Walk the dog');
            INSERT INTO "reminders" VALUES
                (1, 'Buy groceries', 0, 2, 1, 300, 1, 1),
                (2, 'Walk the dog', 1, NULL, 0, 100, 1, NULL),
                (3, 'Send invoice', 0, 3, 0, 200, 2, 2),
                (4, 'Return groceries bag', 1, 2, 1, 400, 1, 2),
                (5, 'Book review', 0, NULL, 0, 50, 2, 3);
            INSERT INTO "users" VALUES (1, 'Ada', NULL), (2, 'Ben', 1), (3, 'Cy', 2);
            """)
        return db
    }

    @Test func chosenColumnsOneTwoAndThree() throws {
        let db = try Self.database()
        let ids = Reminder.select(\.id)
        #expect(ids.sql == #"SELECT "reminders"."id" FROM "reminders""#)
        #expect(try ids.fetchAll(db) == [1, 2, 3, 4, 5])

        let pairs = Reminder
            .select { ($0.id, $0.title) }
        #expect(pairs.sql == #"SELECT "reminders"."id", "reminders"."title" FROM "reminders""#)
        #expect(try pairs.fetchAll(db).map(\.1).first == "Buy groceries")

        let triples = Reminder.select { ($0.id, $0.title, $0.isCompleted) }
        #expect(triples.sql == #"SELECT "reminders"."id", "reminders"."title", "reminders"."isCompleted" FROM "reminders""#)
        let rows = try triples.fetchAll(db)
        #expect(rows.filter(\.2).map(\.0) == [2, 4])
    }

    @Test func chainedSelectsAddColumns() throws {
        let db = try Self.database()
        let q1 = Reminder.select(\.id)     // => Int
        let q2 = q1.select(\.title)        // => (Int, String)
        let q3 = q2.select(\.isCompleted)  // => (Int, String, Bool)
        #expect(q3.sql == #"SELECT "reminders"."id", "reminders"."title", "reminders"."isCompleted" FROM "reminders""#)
        let rows = try q3.fetchAll(db)
        #expect(rows.map(\.0) == [1, 2, 3, 4, 5])
        #expect(rows[1].1 == "Walk the dog" && rows[1].2)
        #expect(try q2.fetchAll(db).map(\.1).last == "Book review")
    }

    @Test func distinctTitles() throws {
        let db = try Self.database()
        try db.execute(#"INSERT INTO "reminders" VALUES (6, 'Walk the dog', 0, NULL, 0, 10, 2, NULL)"#)
        let titles = Reminder
            .distinct()
            .select(\.title)
        #expect(titles.sql == #"SELECT DISTINCT "reminders"."title" FROM "reminders""#)
        #expect(try titles.fetchAll(db).count == 5)
    }

    @Test func aSelectionBuiltFromColumnsAndFromAMap() throws {
        let db = try Self.database()
        let query = Reminder.select {
            ReminderResult.Columns(
                title: $0.title,
                isCompleted: $0.isCompleted
            )
        }
        #expect(query.sql == #"SELECT "reminders"."title" AS "title", "reminders"."isCompleted" AS "isCompleted" FROM "reminders""#
            || query.sql == #"SELECT "reminders"."title", "reminders"."isCompleted" FROM "reminders""#)
        #expect(try query.fetchAll(db).first == ReminderResult(title: "Buy groceries", isCompleted: false))

        let chained = Reminder
            .select(\.id)
            .select(\.title)
            .select(\.isCompleted)

        let mapped = chained.map { _, title, isCompleted in
            ReminderResult.Columns(
                title: title,
                isCompleted: isCompleted
            )
        }
        #expect(try mapped.fetchAll(db) == query.fetchAll(db))
    }

    @Test func joinsOfTwoAndThreeTables() throws {
        let db = try Self.database()
        let pairs = RemindersList
            .join(Reminder.all) {
                $0.id == $1.remindersListID
            }
        #expect(pairs.sql.hasSuffix(#"FROM "remindersLists" JOIN "reminders" ON ("remindersLists"."id" = "reminders"."remindersListID")"#))
        #expect(try pairs.fetchAll(db).count == 5)

        let titles = RemindersList
            .join(Reminder.all) {
                $0.id == $1.remindersListID
            }
            .select { ($0.title, $1.title) }
        #expect(titles.sql == #"SELECT "remindersLists"."title", "reminders"."title" FROM "remindersLists" JOIN "reminders" ON ("remindersLists"."id" = "reminders"."remindersListID")"#)
        #expect(try titles.fetchAll(db).filter { $0.0 == "Work" }.map(\.1).sorted() == ["Book review", "Send invoice"])

        let triples = RemindersList
            .join(Reminder.all) {
                $0.id == $1.remindersListID
            }
            .join(User.all) {
                $1.assignedUserID == $2.id
            }
        #expect(triples.sql.hasSuffix(#"JOIN "users" ON ("reminders"."assignedUserID" = "users"."id")"#))
        let rows = try triples.fetchAll(db)
        #expect(rows.map { "\($0.0.title)/\($0.1.title)/\($0.2.name)" }.sorted() == [
            "Home/Buy groceries/Ada", "Home/Return groceries bag/Ben", "Work/Book review/Cy", "Work/Send invoice/Ben",
        ])
    }

    @Test func joinsOfFilteredSelects() throws {
        let db = try Self.database()
        let titles = RemindersList
            .select(\.title)
            .join(Reminder.select(\.title)) {
                $0.id == $1.remindersListID
            }
        #expect(try titles.fetchAll(db).count == 5)

        let flagged = RemindersList
            .where { $0.id == 1 }
            .join(Reminder.where(\.isFlagged)) {
                $0.id == $1.remindersListID
            }
        #expect(flagged.sql.hasSuffix(#"WHERE ("remindersLists"."id" = ?) AND "reminders"."isFlagged""#)
            || flagged.sql.hasSuffix(#"WHERE ("remindersLists"."id" = ?) AND ("reminders"."isFlagged")"#))
        #expect(try flagged.fetchAll(db).map(\.1.id) == [1, 4])
    }

    @Test func aSelfJoinThroughAnAlias() throws {
        let db = try Self.database()
        let usersWithReferrers = User
            .leftJoin(User.as(Referrer.self).all) {
                $0.referrerID == $1.id
            }
            .select { ($0.name, $1.name) }
        // The alias is the type's name with its first letter lowercased (StructuredQueries: "referrers").
        #expect(usersWithReferrers.sql == #"SELECT "users"."name", "referrer"."name" FROM "users" LEFT JOIN "users" AS "referrer" ON ("users"."referrerID" = "referrer"."id")"#)
        // The alias's columns read as optional after the left join: a user without a referrer reads nil.
        let everyUser: [(String, String?)] = try usersWithReferrers.fetchAll(db)
        #expect(everyUser.sorted { $0.0 < $1.0 }.map(\.1) == [nil, "Ada", "Ben"])
        let referred = User.join(User.as(Referrer.self).all) { $0.referrerID == $1.id }.select { ($0.name, $1.name) }
        let rows = try referred.fetchAll(db)
        #expect(rows.map(\.0) == ["Ben", "Cy"])
        #expect(rows.map(\.1) == ["Ada", "Ben"])
    }

    @Test func filtersChainedAndCombined() throws {
        let db = try Self.database()
        let completed = Reminder
            .where(\.isCompleted)
        #expect(completed.sql.hasSuffix(#"WHERE "reminders"."isCompleted""#))
        #expect(try completed.fetchAll(db).map(\.id) == [2, 4])

        let both = Reminder
            .where {
                !$0.isCompleted
                    && $0.title.like("%groceries%")
            }
        #expect(try both.fetchAll(db).map(\.id) == [1])

        let chained = Reminder
            .where(\.isCompleted)
            .where {
                $0.title.like("%groceries%")
            }
        #expect(chained.sql.hasSuffix(#"WHERE "reminders"."isCompleted" AND ("reminders"."title" LIKE ?)"#)
            || chained.sql.hasSuffix(#"WHERE ("reminders"."isCompleted") AND (("reminders"."title" LIKE ?))"#))
        #expect(try chained.fetchAll(db).map(\.id) == [4])
    }

    @Test func scopesCombinedWithAndAndOr() throws {
        let db = try Self.database()
        let completed = Reminder.where(\.isCompleted)
        let flagged = Reminder.where(\.isFlagged)
        #expect(try completed.and(flagged).fetchAll(db).map(\.id) == [4])
        #expect(try completed.or(flagged).fetchAll(db).map(\.id) == [1, 2, 4])
    }

    @Test func groupsAndHaving() throws {
        let db = try Self.database()
        let byPriority = Reminder
            .group(by: \.priority)
        #expect(byPriority.sql.hasSuffix(#"GROUP BY "reminders"."priority""#))

        let byTwo = Reminder
            .group {
                ($0.isCompleted, $0.priority)
            }
        #expect(byTwo.sql.hasSuffix(#"GROUP BY "reminders"."isCompleted", "reminders"."priority""#))
        let chained = Reminder
            .group(by: \.isCompleted)
            .group(by: \.priority)
        #expect(chained.sql == byTwo.sql)

        let counts = Reminder
            .group(by: \.priority)
            .having { $0.id.count() > 1 }
            .select {
                ($0.priority, $0.id.count())
            }
        #expect(counts.sql == #"SELECT "reminders"."priority", count("reminders"."id") FROM "reminders" GROUP BY "reminders"."priority" HAVING (count("reminders"."id") > ?)"#)
        let rows = try counts.fetchAll(db)
        #expect(rows.map(\.0) == [nil, 2])
        #expect(rows.map(\.1) == [2, 2])
    }

    @Test func ordersChained() throws {
        let db = try Self.database()
        let byTitle = Reminder
            .order(by: \.title)
        #expect(byTitle.sql.hasSuffix(#"ORDER BY "reminders"."title""#))
        #expect(try byTitle.fetchAll(db).map(\.id) == [5, 1, 4, 3, 2])

        let nullsFirst = Reminder
            .order {
                ($0.priority.desc(nulls: .first),
                 $0.title.asc())
            }
        #expect(nullsFirst.sql.hasSuffix(#"ORDER BY "reminders"."priority" DESC NULLS FIRST, "reminders"."title" ASC"#))
        #expect(try nullsFirst.fetchAll(db).map(\.id) == [5, 2, 3, 1, 4])

        let chained = Reminder
            .order { $0.priority.desc() }
            .order(by: \.title)
        #expect(chained.sql.hasSuffix(#"ORDER BY "reminders"."priority" DESC, "reminders"."title""#))
        #expect(try chained.fetchAll(db).map(\.id) == [3, 1, 4, 5, 2])
    }

    @Test func limitsAndOffsets() throws {
        let db = try Self.database()
        #expect(Reminder.limit(10).sql.hasSuffix("LIMIT ?"))
        #expect(try Reminder.limit(2).fetchAll(db).map(\.id) == [1, 2])
        let paged = Reminder
            .limit(10)
            .offset(10)
        #expect(paged.sql.hasSuffix("LIMIT ? OFFSET ?"))
        #expect(try paged.fetchAll(db).isEmpty)
        let relimited = Reminder
            .limit(10)
            .offset(10)
            .limit(20)
        #expect(relimited.bindings == [.integer(20), .integer(10)])
        let offset: Int? = nil
        let noOffset = Reminder
            .limit(10)
            .offset(offset)
        #expect(noOffset.sql.hasSuffix("LIMIT ?"))

    }

    @Test func unionIntersectAndExcept() throws {
        let db = try Self.database()
        let union = RemindersList.select(\.title)
            .union(Reminder.select(\.title))
        #expect(union.sql == #"SELECT "remindersLists"."title" FROM "remindersLists" UNION SELECT "reminders"."title" FROM "reminders""#)
        #expect(try union.fetchAll(db).count == 7)
        let intersect = RemindersList.select(\.title)
            .intersect(Reminder.select(\.title))
        #expect(try intersect.fetchAll(db) == ["Walk the dog"])
        let except = RemindersList.select(\.title)
            .except(Reminder.select(\.title))
        #expect(try except.fetchAll(db).sorted() == ["Home", "Work"])
    }
}
