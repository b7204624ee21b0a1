import BoutiqueQueries
import BoutiqueSQLite
import Foundation
import Testing

/// StructuredQueries' "Defining your schema" article: grouped columns (a `@Selection` struct as one
/// field of a `@Table`), generated columns whose expression lives in the app's SQL, and a `Draft`
/// made from a stored row. Each test shows the SQL and the rows.
@Suite("Article: defining your schema, grouped and generated columns")
struct GroupedAndGeneratedColumnsArticleTests {
    @Selection
    struct Timestamps: Equatable {
        let createdAt: Date
        let updatedAt: Date?
    }

    @Table
    struct RemindersList: Equatable {
        let id: Int
        var name = ""
        let timestamps: Timestamps
    }

    @Table
    struct Event: Equatable {
        let id: Int
        var startAt: Date
        var duration: TimeInterval

        @Column(generated: .stored)
        let endAt: Date
    }

    /// A span of time whose end the database computes: a generated column inside a group.
    @Selection
    struct Span: Equatable {
        var startAt: Date
        var duration: TimeInterval
        @Column(generated: .stored)
        let endAt: Date
    }

    @Table
    struct Booking: Equatable {
        let id: Int
        var span: Span
    }

    static let day1 = Date(timeIntervalSince1970: 86_400)
    static let day2 = Date(timeIntervalSince1970: 2 * 86_400)
    static let day3 = Date(timeIntervalSince1970: 3 * 86_400)

    /// The article's flattened `CREATE TABLE`, as an app's migration writes it.
    static func listsDatabase() throws -> Connection {
        let db = try Connection(path: ":memory:")
        try db.execute(#"CREATE TABLE "remindersList" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL, "createdAt" REAL NOT NULL, "updatedAt" REAL) STRICT"#)
        return db
    }

    // MARK: Grouped columns

    @Test func theGroupsFieldsAreColumnsOfTheTableInOrder() {
        #expect(RemindersList.TableColumns.allColumns.map(\.name) == ["id", "name", "createdAt", "updatedAt"])
        #expect(RemindersList.all.sql == #"SELECT "remindersList"."id", "remindersList"."name", "remindersList"."createdAt", "remindersList"."updatedAt" FROM "remindersList""#)
        #expect(CreateTableStatement(RemindersList.self).sql == #"CREATE TABLE "remindersList" ("id" INTEGER PRIMARY KEY NOT NULL, "name" TEXT NOT NULL DEFAULT '', "createdAt" REAL NOT NULL, "updatedAt" REAL)"#)
    }

    @Test func rowsWithAGroupAreInsertedAndReadBack() throws {
        let db = try Self.listsDatabase()
        let first = RemindersList(id: 1, name: "Home", timestamps: Timestamps(createdAt: Self.day1, updatedAt: nil))
        let insert = RemindersList.insert {
            first
            RemindersList.Draft(name: "Work", timestamps: Timestamps(createdAt: Self.day2, updatedAt: Self.day3))
        }
        #expect(insert.sql == #"INSERT INTO "remindersList" ("id", "name", "createdAt", "updatedAt") VALUES (?, ?, ?, ?), (?, ?, ?, ?)"#)
        let bindings: [DatabaseValue] = [
            .integer(1), .text("Home"), .real(86_400), .null, .null, .text("Work"), .real(172_800), .real(259_200),
        ]
        #expect(insert.bindings == bindings)
        try insert.execute(db)
        let second = RemindersList(id: 2, name: "Work", timestamps: Timestamps(createdAt: Self.day2, updatedAt: Self.day3))
        #expect(try RemindersList.order { $0.id }.fetchAll(db) == [first, second])
    }

    @Test func aFieldOfTheGroupIsAColumnOfTheTable() throws {
        let db = try Self.listsDatabase()
        try RemindersList.insert {
            RemindersList(id: 1, name: "Home", timestamps: Timestamps(createdAt: Self.day1, updatedAt: nil))
            RemindersList(id: 2, name: "Work", timestamps: Timestamps(createdAt: Self.day3, updatedAt: nil))
        }.execute(db)
        let query = RemindersList
            .where { $0.timestamps.createdAt <= Self.day2 }
        #expect(query.sql == #"SELECT "remindersList"."id", "remindersList"."name", "remindersList"."createdAt", "remindersList"."updatedAt" FROM "remindersList" WHERE ("remindersList"."createdAt" <= ?)"#)
        #expect(try query.fetchAll(db).map(\.name) == ["Home"])
        let names = try RemindersList.order { $0.timestamps.createdAt.desc() }.select(\.name).fetchAll(db)
        #expect(names == ["Work", "Home"])
    }

    @Test func theGroupSelectedAloneReadsItsColumnsAsTheStruct() throws {
        let db = try Self.listsDatabase()
        let home = Timestamps(createdAt: Self.day1, updatedAt: nil)
        let work = Timestamps(createdAt: Self.day2, updatedAt: Self.day3)
        try RemindersList.insert {
            RemindersList(id: 1, name: "Home", timestamps: home)
            RemindersList(id: 2, name: "Work", timestamps: work)
        }.execute(db)
        // Its columns one by one, not the row value SQLite refuses to select.
        let stamps = RemindersList.order { $0.id }.select(\.timestamps)
        #expect(stamps.sql == #"SELECT "remindersList"."createdAt", "remindersList"."updatedAt" FROM "remindersList" ORDER BY "remindersList"."id""#)
        #expect(try stamps.fetchAll(db) == [home, work])

        // In a tuple, and added to a chosen value.
        let pairs = try RemindersList.order { $0.id }.select { ($0.timestamps, $0.name) }.fetchAll(db)
        #expect(pairs.map(\.0) == [home, work])
        #expect(pairs.map(\.1) == ["Home", "Work"])
        let chained = try RemindersList.order { $0.id }.select(\.id).select(\.timestamps).fetchAll(db)
        #expect(chained.map(\.0) == [1, 2])
        #expect(chained.map(\.1) == [home, work])
    }

    @Test func aFieldOfTheGroupIsAssignedInAnUpdate() throws {
        let db = try Self.listsDatabase()
        try RemindersList.insert {
            RemindersList(id: 1, name: "Home", timestamps: Timestamps(createdAt: Self.day1, updatedAt: nil))
            RemindersList(id: 2, name: "Work", timestamps: Timestamps(createdAt: Self.day2, updatedAt: nil))
        }.execute(db)
        let touch = RemindersList.update {
            $0.name = "Home!"
            $0.timestamps.updatedAt = Self.day3
        }.where { $0.id.eq(1) }
        #expect(touch.sql == #"UPDATE "remindersList" SET "name" = ?, "updatedAt" = ? WHERE ("remindersList"."id" = ?)"#)
        try touch.execute(db)
        #expect(try RemindersList.order { $0.id }.fetchAll(db) == [
            RemindersList(id: 1, name: "Home!", timestamps: Timestamps(createdAt: Self.day1, updatedAt: Self.day3)),
            RemindersList(id: 2, name: "Work", timestamps: Timestamps(createdAt: Self.day2, updatedAt: nil)),
        ])

        // An expression of the field's type, read from another field of the group; and NULL again.
        try RemindersList.update { $0.timestamps.updatedAt = $0.timestamps.createdAt }.where { $0.id.eq(2) }.execute(db)
        try RemindersList.update { $0.timestamps.updatedAt = nil }.where { $0.id.eq(1) }.execute(db)
        #expect(try RemindersList.order { $0.id }.select(\.timestamps).fetchAll(db) == [
            Timestamps(createdAt: Self.day1, updatedAt: nil), Timestamps(createdAt: Self.day2, updatedAt: Self.day2),
        ])
    }

    @Test func theGroupIsComparedAsARowValue() throws {
        let db = try Self.listsDatabase()
        let home = Timestamps(createdAt: Self.day1, updatedAt: Self.day2)
        try RemindersList.insert {
            RemindersList(id: 1, name: "Home", timestamps: home)
            RemindersList(id: 2, name: "Work", timestamps: Timestamps(createdAt: Self.day2, updatedAt: Self.day3))
        }.execute(db)
        let same = RemindersList.where { $0.timestamps.eq(home) }
        #expect(same.sql.hasSuffix(#"WHERE (("remindersList"."createdAt", "remindersList"."updatedAt") = (?, ?))"#))
        let bindings: [DatabaseValue] = [.real(86_400), .real(172_800)]
        #expect(same.bindings == bindings)
        #expect(try same.fetchAll(db).map(\.id) == [1])
        let earlier = RemindersList.where {
            $0.timestamps <= Timestamps(createdAt: Self.day1, updatedAt: Self.day3)
        }
        #expect(earlier.sql.hasSuffix(#"WHERE (("remindersList"."createdAt", "remindersList"."updatedAt") <= (?, ?))"#))
        #expect(try earlier.fetchAll(db).map(\.id) == [1])
        #expect(try RemindersList.where { $0.timestamps.neq(home) }.fetchAll(db).map(\.id) == [2])
        // The operators spell the same comparisons.
        let equal = RemindersList.where { $0.timestamps == home }
        #expect(equal.sql.hasSuffix(#"WHERE (("remindersList"."createdAt", "remindersList"."updatedAt") = (?, ?))"#))
        #expect(try equal.fetchAll(db).map(\.id) == [1])
        #expect(try RemindersList.where { $0.timestamps != home }.fetchAll(db).map(\.id) == [2])
    }

    @Test func aRowWithAGroupIsUpdatedAndUpserted() throws {
        let db = try Self.listsDatabase()
        var list = RemindersList(id: 1, name: "Home", timestamps: Timestamps(createdAt: Self.day1, updatedAt: nil))
        try RemindersList.insert { list }.execute(db)
        list.name = "House"
        list = RemindersList(id: 1, name: "House", timestamps: Timestamps(createdAt: Self.day1, updatedAt: Self.day2))
        let update = RemindersList.update(list)
        #expect(update.sql == #"UPDATE "remindersList" SET "name" = ?, "createdAt" = ?, "updatedAt" = ? WHERE "remindersList"."id" = ?"#)
        try update.execute(db)
        #expect(try RemindersList.find(1).fetchOne(db) == list)
        let upserted = RemindersList(id: 1, name: "Home", timestamps: Timestamps(createdAt: Self.day2, updatedAt: Self.day3))
        try RemindersList.upsert { upserted }.execute(db)
        #expect(try RemindersList.all.fetchAll(db) == [upserted])
    }

    /// Who changed a row and when: a group used twice in one table.
    @Selection
    struct Stamp: Equatable {
        var at: Date
        var by: String
    }

    @Table
    struct Audit: Equatable {
        let id: Int
        var created: Stamp
        var updated: Stamp
    }

    /// As in StructuredQueries, a group's columns are named after its fields alone, whatever the field
    /// that holds it is called: two groups of one type name the same columns, and SQLite refuses the
    /// table (a table made by hand would have both read from the first).
    @Test func twoGroupsOfOneTypeNameTheSameColumns() throws {
        #expect(Audit.TableColumns.allColumns.map(\.name) == ["id", "at", "by", "at", "by"])
        #expect(Audit.where { $0.updated.by.eq("ana") }.sql.hasSuffix(#"WHERE ("audit"."by" = ?)"#))
        let db = try Connection(path: ":memory:")
        let error = #expect(throws: BoutiqueError.self) { try CreateTableStatement(Audit.self).execute(db) }
        #expect(error?.description.contains("duplicate column name") == true)
        #expect(try db.fetchValue("SELECT count(*) FROM sqlite_schema WHERE name = 'audit'") == .integer(0))
    }

    // MARK: Generated columns

    /// The table as the app's migration creates it: the expression is in the SQL, not the model.
    static func eventsDatabase() throws -> Connection {
        let db = try Connection(path: ":memory:")
        try db.execute(#"CREATE TABLE "event" ("id" INTEGER PRIMARY KEY, "startAt" REAL NOT NULL, "duration" REAL NOT NULL, "endAt" REAL GENERATED ALWAYS AS ("startAt" + "duration") STORED)"#)
        return db
    }

    @Test func aGeneratedColumnIsReadButNeverWritten() throws {
        let db = try Self.eventsDatabase()
        let insert = Event.insert { Event.Draft(startAt: Self.day1, duration: 3600) }
        #expect(insert.sql == #"INSERT INTO "event" ("id", "startAt", "duration") VALUES (?, ?, ?)"#)
        try insert.execute(db)
        var event = try #require(try Event.find(1).fetchOne(db))
        #expect(event == Event(id: 1, startAt: Self.day1, duration: 3600, endAt: Self.day1.addingTimeInterval(3600)))

        event.duration = 7200
        let update = Event.update(event)
        #expect(update.sql == #"UPDATE "event" SET "startAt" = ?, "duration" = ? WHERE "event"."id" = ?"#)
        try update.execute(db)
        #expect(try Event.find(1).select(\.endAt).fetchOne(db) == Self.day1.addingTimeInterval(7200))

        let upsert = Event.upsert { Event(id: 1, startAt: Self.day2, duration: 60, endAt: .distantPast) }
        #expect(upsert.sql == #"INSERT INTO "event" ("id", "startAt", "duration") VALUES (?, ?, ?) ON CONFLICT ("id") DO UPDATE SET "startAt" = excluded."startAt", "duration" = excluded."duration""#)
        try upsert.execute(db)
        #expect(try Event.find(1).select(\.endAt).fetchOne(db) == Self.day2.addingTimeInterval(60))
        #expect(Event.TableColumns.allColumns.last?.generated == .stored)
    }

    @Test func theModelAloneCannotCreateATableWhoseGeneratedColumnItDoesNotDescribe() throws {
        let db = try Connection(path: ":memory:")
        let statement = CreateTableStatement(Event.self)
        #expect(statement.columnsWithoutExpression == ["endAt"])
        #expect(statement.sql == #"CREATE TABLE "event" ("id" INTEGER PRIMARY KEY NOT NULL, "startAt" REAL NOT NULL, "duration" REAL NOT NULL, "endAt" REAL GENERATED ALWAYS AS () STORED)"#)
        let error = #expect(throws: BoutiqueError.self) { try statement.execute(db) }
        #expect(error?.description.contains("generated column 'endAt'") == true)
        #expect(error?.description.contains("migration") == true)
        // Nothing was created.
        #expect(try db.fetchValue("SELECT count(*) FROM sqlite_schema WHERE name = 'event'") == .integer(0))
    }

    // MARK: Drafts from rows

    @Test func aDraftMadeFromARowInsertsACopy() throws {
        let db = try Self.eventsDatabase()
        try Event.insert { Event.Draft(startAt: Self.day1, duration: 60) }.execute(db)
        let stored = try #require(try Event.find(1).fetchOne(db))
        var draft = Event.Draft(stored)
        #expect(draft.id == 1 && draft.startAt == Self.day1 && draft.duration == 60)
        draft.id = nil
        try Event.insert { draft }.execute(db)
        #expect(try Event.order { $0.id }.fetchAll(db).map(\.id) == [1, 2])
        #expect(try Event.find(2).fetchOne(db)?.endAt == Self.day1.addingTimeInterval(60))
    }

    @Test func aGeneratedColumnInsideAGroupIsReadButNeverWritten() throws {
        let db = try Connection(path: ":memory:")
        try db.execute(#"CREATE TABLE "booking" ("id" INTEGER PRIMARY KEY, "startAt" REAL NOT NULL, "duration" REAL NOT NULL, "endAt" REAL GENERATED ALWAYS AS ("startAt" + "duration") STORED)"#)
        #expect(Booking.TableColumns.allColumns.map(\.name) == ["id", "startAt", "duration", "endAt"])
        let insert = Booking.insert { Booking(id: 1, span: Span(startAt: Self.day1, duration: 3600, endAt: .distantPast)) }
        #expect(insert.sql == #"INSERT INTO "booking" ("id", "startAt", "duration") VALUES (?, ?, ?)"#)
        try insert.execute(db)
        var booking = try #require(try Booking.find(1).fetchOne(db))
        #expect(booking.span == Span(startAt: Self.day1, duration: 3600, endAt: Self.day1.addingTimeInterval(3600)))

        booking.span.duration = 7200
        let update = Booking.update(booking)
        #expect(update.sql == #"UPDATE "booking" SET "startAt" = ?, "duration" = ? WHERE "booking"."id" = ?"#)
        try update.execute(db)
        #expect(try Booking.find(1).select { $0.span.endAt }.fetchOne(db) == Self.day1.addingTimeInterval(7200))
    }
}
