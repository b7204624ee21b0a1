import BoutiqueQueries
import BoutiqueSQLite
import Foundation
import Testing

/// The examples of StructuredQueries' "Getting started" article, in its spelling, over a short list of
/// errands: the first selects (filters, `like`, `collate`, orders, pages), inserts (with
/// `returning`), updates, deletes and `#sql`. Each test shows the SQL and the rows.
@Suite("Article: getting started")
struct GettingStartedArticleTests {
    @Table("reminders")
    struct Reminder: Equatable {
        let id: Int
        var isCompleted = false
        var title = ""
        var priority: Int?
        var notes = ""
    }

    @Selection
    struct ReminderResult: Equatable {
        let title: String
        let isCompleted: Bool
    }

    static let columnList = #""reminders"."id", "reminders"."isCompleted", "reminders"."title", "reminders"."priority", "reminders"."notes""#

    static func database() throws -> Connection {
        let db = try Connection(path: ":memory:")
        try db.execute("""
            CREATE TABLE "reminders" ("id" INTEGER PRIMARY KEY, "isCompleted" INTEGER NOT NULL DEFAULT 0,
                "title" TEXT NOT NULL DEFAULT '' UNIQUE, "priority" INTEGER, "notes" TEXT NOT NULL DEFAULT '')
            """)
        try Reminder.insert {
            Reminder(id: 1, isCompleted: false, title: "Get bread", priority: 3)
            Reminder(id: 2, isCompleted: true, title: "Water ferns", priority: 3)
            Reminder(id: 3, isCompleted: false, title: "Forget nothing", priority: 1)
            Reminder(id: 4, isCompleted: true, title: "GET stamps", priority: nil, notes: "at the kiosk")
            Reminder(id: 42, isCompleted: false, title: "Call the plumber", priority: 2)
        }.execute(db)
        return db
    }

    // MARK: Writing your first query

    @Test func allAndNegatedWhere() throws {
        let db = try Self.database()
        #expect(Reminder.all.sql == #"SELECT \#(Self.columnList) FROM "reminders""#)
        #expect(try Reminder.all.fetchAll(db).count == 5)

        let open = Reminder
            .where { !$0.isCompleted }
        #expect(open.sql == #"SELECT \#(Self.columnList) FROM "reminders" WHERE (NOT "reminders"."isCompleted")"#)
        #expect(try open.fetchAll(db).map(\.id) == [1, 3, 42])
    }

    @Test func andOfANegationAndAnEquality() throws {
        let db = try Self.database()
        let urgent = Reminder
            .where {
                !$0.isCompleted
                    && $0.priority == 3
            }
        #expect(urgent.sql.hasSuffix(#"WHERE ((NOT "reminders"."isCompleted") AND ("reminders"."priority" = ?))"#)
            || urgent.sql.hasSuffix(#"WHERE (NOT "reminders"."isCompleted") AND ("reminders"."priority" = ?)"#))
        #expect(urgent.bindings == [.integer(3)])
        #expect(try urgent.fetchAll(db).map(\.id) == [1])
    }

    @Test func likeAndCollatedLike() throws {
        let db = try Self.database()
        let get = Reminder
            .where { $0.title.like("%Get%") }
        #expect(get.sql.hasSuffix(#"WHERE ("reminders"."title" LIKE ?)"#))
        // SQLite's LIKE ignores the case of ASCII letters on its own.
        #expect(try get.fetchAll(db).map(\.id) == [1, 3, 4])

        let nocase = Reminder
            .where {
                $0.title
                    .collate(.nocase)
                    .like("%get%")
            }
        #expect(nocase.sql.hasSuffix(#"WHERE (("reminders"."title" COLLATE NOCASE) LIKE ?)"#))
        #expect(try nocase.fetchAll(db).map(\.id) == [1, 3, 4])
    }

    @Test func selectWhereOrderLimitAndOffset() throws {
        let db = try Self.database()
        let ordered = Reminder
            .select { $0.title }
            .where {
                $0.title
                    .collate(.nocase)
                    .like("%get%")
            }
            .order {
                ($0.isCompleted.desc(),
                 $0.priority.desc(),
                 $0.title)
            }
        #expect(ordered.sql == #"SELECT "reminders"."title" FROM "reminders" WHERE (("reminders"."title" COLLATE NOCASE) LIKE ?) ORDER BY "reminders"."isCompleted" DESC, "reminders"."priority" DESC, "reminders"."title""#)
        #expect(try ordered.fetchAll(db) == ["GET stamps", "Get bread", "Forget nothing"])

        let paged = Reminder
            .select { $0.title }
            .where {
                $0.title
                    .collate(.nocase)
                    .like("%get%")
            }
            .order {
                ($0.isCompleted.desc(),
                 $0.priority.desc(),
                 $0.title)
            }
            .limit(10)
            .offset(10)
        #expect(paged.sql.hasSuffix(#""reminders"."title" LIMIT ? OFFSET ?"#))
        #expect(paged.bindings.suffix(2) == [.integer(10), .integer(10)])
        #expect(try paged.fetchAll(db).isEmpty)
        let secondPage = Reminder.select { $0.title }.order { $0.id }.limit(2).offset(2)
        #expect(try secondPage.fetchAll(db) == ["Forget nothing", "GET stamps"])
    }

    // MARK: Insert statements

    @Test func insertOfChosenColumns() throws {
        let db = try Self.database()
        try db.execute(#"DELETE FROM "reminders""#)
        let insert = Reminder.insert {
            ($0.title, $0.priority)
        } values: {
            ("Get groceries", 3)
            ("Take a walk", 1)
            ("Get haircut", nil)
        }
        #expect(insert.sql == #"INSERT INTO "reminders" ("title", "priority") VALUES (?, ?), (?, ?), (?, NULL)"#
            || insert.sql == #"INSERT INTO "reminders" ("title", "priority") VALUES (?, ?), (?, ?), (?, ?)"#)
        try insert.execute(db)
        let rows = try Reminder.order { $0.id }.fetchAll(db)
        #expect(rows.map(\.title) == ["Get groceries", "Take a walk", "Get haircut"])
        #expect(rows.map(\.priority) == [3, 1, nil])
        #expect(rows.allSatisfy { !$0.isCompleted && $0.notes.isEmpty })
    }

    @Test func insertReturningTheIDsAndTheRows() throws {
        let db = try Self.database()
        let ids = Reminder.insert {
            ($0.title, $0.priority)
        } values: {
            ("Get groceries", 3)
            ("Take a walk", 1)
            ("Get haircut", nil)
        }
        .returning(\.id)
        #expect(ids.sql.hasSuffix(#" RETURNING "id""#) || ids.sql.hasSuffix(#" RETURNING "reminders"."id""#))
        #expect(try ids.fetchAll(db) == [43, 44, 45])

        let rows = Reminder.insert {
            ($0.title, $0.priority)
        } values: {
            ("Buy stamps", 3)
            ("Walk the dog", 1)
            ("Book dentist", nil)
        }
        .returning(\.self)
        #expect(rows.sql.hasSuffix(#" RETURNING "id", "isCompleted", "title", "priority", "notes""#)
            || rows.sql.hasSuffix(" RETURNING \(Self.columnList)"))
        let inserted = try rows.fetchAll(db)
        #expect(inserted == [
            Reminder(id: 46, title: "Buy stamps", priority: 3),
            Reminder(id: 47, title: "Walk the dog", priority: 1),
            Reminder(id: 48, title: "Book dentist", priority: nil),
        ])
    }

    // MARK: Update statements

    @Test func updateOfEveryRowAndOfAFilteredRow() throws {
        let db = try Self.database()
        let everyRow = Reminder.update {
            $0.title = "Get more groceries"
            $0.isCompleted.toggle()
            $0.notes += """

                * Milk
                * Eggs
                """
        }
        #expect(everyRow.sql == #"UPDATE "reminders" SET "title" = ?, "isCompleted" = (NOT "isCompleted"), "notes" = ("notes" || ?)"#)
        #expect(everyRow.bindings == [.text("Get more groceries"), .text("\n* Milk\n* Eggs")])

        let one = Reminder
            .update {
                $0.title = "Get more groceries"
                $0.isCompleted.toggle()
                $0.notes += """

                    * Milk
                    * Eggs
                    """
            }
            .where {
                $0.id == 42
            }
        #expect(one.sql.hasSuffix(#"("notes" || ?) WHERE ("reminders"."id" = ?)"#))
        try one.execute(db)
        let changed = try Reminder.find(42).fetchOne(db)
        #expect(changed == Reminder(id: 42, isCompleted: true, title: "Get more groceries", priority: 2, notes: "\n* Milk\n* Eggs"))
        #expect(try Reminder.where { $0.title == "Get more groceries" }.count().fetchOne(db) == 1)
    }

    @Test func updateAfterWhereAndReturning() throws {
        let db = try Self.database()
        let renamed = Reminder
            .where { $0.id == 42 }
            .update { $0.title = "Get more groceries" }
        #expect(renamed.sql == #"UPDATE "reminders" SET "title" = ? WHERE ("reminders"."id" = ?)"#)
        try renamed.execute(db)
        #expect(try Reminder.find(42).select(\.title).fetchOne(db) == "Get more groceries")

        let toggled = Reminder
            .where { $0.id == 42 }
            .update { $0.isCompleted.toggle() }
            .returning(\.isCompleted)
        #expect(toggled.sql.hasSuffix(#"WHERE ("reminders"."id" = ?) RETURNING "isCompleted""#)
            || toggled.sql.hasSuffix(#"WHERE ("reminders"."id" = ?) RETURNING "reminders"."isCompleted""#))
        #expect(try toggled.fetchAll(db) == [true])
        #expect(try toggled.fetchOne(db) == false)
    }

    // MARK: Delete statements

    @Test func deletesOfEveryRowOfAFilteredRowAndReturning() throws {
        let db = try Self.database()
        let everyRow = Reminder.delete()
        #expect(everyRow.sql == #"DELETE FROM "reminders""#)

        let filtered = Reminder
            .delete()
            .where { $0.id == 42 }
        #expect(filtered.sql == #"DELETE FROM "reminders" WHERE ("reminders"."id" = ?)"#)

        let chained = Reminder
            .where { $0.id == 42 }
            .delete()
        #expect(chained.sql == filtered.sql)

        let returning = Reminder
            .where { $0.id == 42 }
            .delete()
            .returning(\.self)
        #expect(returning.sql.hasPrefix(#"DELETE FROM "reminders" WHERE ("reminders"."id" = ?) RETURNING "#))
        #expect(try returning.fetchAll(db) == [Reminder(id: 42, title: "Call the plumber", priority: 2)])
        try filtered.execute(db)
        #expect(try Reminder.count().fetchOne(db) == 4)
        try everyRow.execute(db)
        #expect(try Reminder.count().fetchOne(db) == 0)
    }

    // MARK: Safe SQL strings

    @Test func anSQLStringOfOneValue() throws {
        let db = try Self.database()
        let titles = #sql("SELECT title FROM reminders", as: String.self)
        #expect(try titles.fetchAll(db).sorted() == ["Call the plumber", "Forget nothing", "GET stamps", "Get bread", "Water ferns"])
    }

    @Test func anSQLStringOfSeveralValuesIsATuple() throws {
        let db = try Self.database()
        let rows = try #sql("SELECT title, isCompleted FROM reminders ORDER BY id", as: (String, Bool).self).fetchAll(db)
        #expect(rows.map(\.0) == ["Get bread", "Water ferns", "Forget nothing", "GET stamps", "Call the plumber"])
        #expect(rows.map(\.1) == [false, true, false, true, false])

        // The table's columns as static members of its type.
        let typed = #sql(
            """
            SELECT \(Reminder.title), \(Reminder.isCompleted), \(Reminder.priority)
            FROM \(Reminder.self)
            WHERE \(Reminder.id) = \(4)
            """,
            as: (String, Bool, Int?).self
        )
        #expect(typed.sql == "SELECT \"reminders\".\"title\", \"reminders\".\"isCompleted\", \"reminders\".\"priority\"\nFROM \"reminders\"\nWHERE \"reminders\".\"id\" = ?")
        let row = try #require(try typed.fetchOne(db))
        #expect(row.0 == "GET stamps" && row.1 && row.2 == nil)
        #expect(try #sql("SELECT title, id FROM reminders WHERE id > 100", as: (String, Int).self).fetchOne(db) == nil)
        // A column read with the wrong type is an error, not a trap.
        #expect(throws: BoutiqueError.self) { try #sql("SELECT title, title FROM reminders", as: (String, Int).self).fetchAll(db) }
    }

    @Test func sqlStringsOfTheTablesColumnsWithABoundValue() throws {
        let db = try Self.database()
        let everything = #sql(
            """
            SELECT \(Reminder.columns)
            FROM \(Reminder.self)
            """,
            as: Reminder.self
        )
        #expect(everything.sql == "SELECT \(Self.columnList)\nFROM \"reminders\"")
        #expect(try everything.fetchAll(db).count == 5)

        let minimumPriority = 2

        let important = #sql(
            """
            SELECT \(Reminder.columns)
            FROM \(Reminder.self)
            WHERE
              \(Reminder.columns.priority)
                >= \(minimumPriority)
            """,
            as: Reminder.self
        )
        #expect(important.sql.hasSuffix("WHERE\n  \"reminders\".\"priority\"\n    >= ?"))
        #expect(important.bindings == [.integer(2)])
        #expect(try important.fetchAll(db).map(\.id).sorted() == [1, 2, 42])
    }

    @Test func sqlStringReadIntoASelection() throws {
        let db = try Self.database()
        let results = #sql(
            """
            SELECT \(Reminder.columns.title), \(Reminder.columns.isCompleted)
            FROM \(Reminder.self)
            """,
            as: ReminderResult.self
        )
        let rows = try results.fetchAll(db)
        #expect(rows.count == 5)
        #expect(rows.contains(ReminderResult(title: "Water ferns", isCompleted: true)))
    }
}
