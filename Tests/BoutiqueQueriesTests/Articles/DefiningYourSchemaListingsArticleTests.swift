import BoutiqueQueries
import BoutiqueSQLite
import Foundation
import Testing

/// The listings of StructuredQueries' "Defining your schema" article in its spelling: default and
/// explicit table names, a renamed column, an enum column (bindable, or stored by its raw value), a
/// JSON array column and a JSON array of selections read by a path, keys, `@Ephemeral`, and a table
/// created with `#sql`. Each test shows the SQL and the rows.
@Suite("Article: defining your schema, listing by listing")
struct DefiningYourSchemaListingsArticleTests {
    @Table struct Category {
        let id: Int
    }
    @Table struct Status {
        let id: Int
    }
    @Table("reminders_list") struct RemindersList {
        let id: Int
    }

    @Table("reminders")
    struct Reminder {
        let id: Int
        var title = ""
        @Column("is_completed")
        var isCompleted = false
    }

    enum Priority: Int, QueryBindable {
        case low, medium, high
    }

    @Table("tasks")
    struct Task: Equatable {
        let id: Int
        var title = ""
        var priority: Priority?
    }

    enum Level: Int {
        case low, medium, high
    }

    @Table("chores")
    struct Chore: Equatable {
        let id: Int
        var title = ""
        @Column(as: Level.RawRepresentation.self)
        var priority: Level
    }

    @Table("notes")
    struct Note: Equatable {
        let id: Int
        var title = ""
        @Column(as: [String].JSONRepresentation.self)
        var notes: [String]
    }

    @Table("trips")
    struct Trip: Equatable {
        let id: Int
        var title = ""
        @Column(as: [Location].JSONRepresentation.self)
        var geofence: [Location] = []
        @Selection struct Location: Codable, Equatable {
            var latitude = 0.0
            var longitude = 0.0
        }
    }

    @Table("books")
    struct Book: Equatable {
        @Column(primaryKey: true)
        let isbn: String
        var title: String
        @Ephemeral
        var scratchNotes = ""
    }

    @Table("codes")
    struct Code: Equatable {
        @Column(primaryKey: false)
        var id: String
        var label = ""
    }

    @Test func tableNamesDefaultAndExplicit() {
        // The default name is the type's name with its first letter lowercased (StructuredQueries
        // pluralises it: "categories", "statuses").
        #expect(Category.tableName == "category")
        #expect(Status.tableName == "status")
        #expect(RemindersList.tableName == "reminders_list")
        #expect(Reminder.tableName == "reminders")
    }

    @Test func aRenamedColumnInAFilter() throws {
        let db = try Connection(path: ":memory:")
        try db.execute(#"CREATE TABLE "reminders" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL DEFAULT '', "is_completed" INTEGER NOT NULL DEFAULT 0)"#)
        try db.execute(#"INSERT INTO "reminders" VALUES (1, 'a', 1), (2, 'b', 0)"#)
        let open = Reminder
            .where { !$0.isCompleted }
        #expect(open.sql == #"SELECT "reminders"."id", "reminders"."title", "reminders"."is_completed" FROM "reminders" WHERE (NOT "reminders"."is_completed")"#)
        #expect(try open.select(\.id).fetchAll(db) == [2])
    }

    @Test func enumColumnsBindableAndByRawValue() throws {
        let db = try Connection(path: ":memory:")
        try db.execute(#"CREATE TABLE "tasks" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL DEFAULT '', "priority" INTEGER)"#)
        try db.execute(#"CREATE TABLE "chores" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL DEFAULT '', "priority" INTEGER NOT NULL)"#)
        try Task.insert {
            Task.Draft(
                title: "Get haircut",
                priority: .medium
            )
        }.execute(db)
        #expect(try #sql("SELECT priority FROM tasks", as: Int.self).fetchOne(db) == 1)
        #expect(try Task.where { $0.priority == Priority.medium }.fetchAll(db) == [Task(id: 1, title: "Get haircut", priority: .medium)])

        try Chore.insert { Chore.Draft(title: "Dust", priority: .high) }.execute(db)
        #expect(try #sql("SELECT priority FROM chores", as: Int.self).fetchOne(db) == 2)
        #expect(try Chore.all.fetchOne(db)?.priority == .high)
    }

    @Test func aJSONArrayOfTextAndOfSelectionsReadByAPath() throws {
        let db = try Connection(path: ":memory:")
        try db.execute(#"CREATE TABLE "notes" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL DEFAULT '', "notes" TEXT NOT NULL)"#)
        try db.execute(#"CREATE TABLE "trips" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL DEFAULT '', "geofence" TEXT NOT NULL DEFAULT '[]')"#)
        try Note.insert {
            Note.Draft(
                title: "Get groceries",
                notes: ["Milk", "Eggs", "Bananas"]
            )
        }.execute(db)
        #expect(try #sql("SELECT notes FROM notes", as: String.self).fetchOne(db) == #"["Milk","Eggs","Bananas"]"#)
        #expect(try Note.all.fetchOne(db)?.notes == ["Milk", "Eggs", "Bananas"])

        try Trip.insert {
            Trip(id: 1, title: "North", geofence: [Trip.Location(latitude: 51.5, longitude: -0.1)])
            Trip(id: 2, title: "South", geofence: [Trip.Location(latitude: -33.9, longitude: 18.4)])
            Trip(id: 3, title: "Nowhere")
        }.execute(db)
        let north = Trip.where {
            $0.geofence.jsonExtract(\.[0].latitude).gt(0)
        }
        #expect(north.sql.contains(#"json_extract("trips"."geofence", '$[0]."latitude"') > ?"#))
        #expect(try north.fetchAll(db).map(\.title) == ["North"])
    }

    @Test func keysEphemeralFieldsAndACreateTableInSQL() throws {
        let db = try Connection(path: ":memory:")
        try #sql(
            """
            CREATE TABLE "books" (
              "isbn" TEXT PRIMARY KEY NOT NULL,
              "title" TEXT NOT NULL
            )
            """
        ).execute(db)
        try db.execute(#"CREATE TABLE "codes" ("id" TEXT NOT NULL, "label" TEXT NOT NULL DEFAULT '')"#)
        try Book.insert { Book(isbn: "978-0", title: "Emma", scratchNotes: "not stored") }.execute(db)
        #expect(Book.all.sql == #"SELECT "books"."isbn", "books"."title" FROM "books""#)
        #expect(try Book.find("978-0").fetchOne(db) == Book(isbn: "978-0", title: "Emma"))

        try Code.insert { Code(id: "a", label: "one"); Code(id: "a", label: "two") }.execute(db)
        #expect(try Code.where { $0.id == "a" }.count().fetchOne(db) == 2)
    }
}
