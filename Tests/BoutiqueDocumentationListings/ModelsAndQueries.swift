import BoutiqueDB
import Foundation

// The listings of the Models and Queries article: a reminders app's models and the queries it runs.

// At file scope: a model's generated extension is not nested, so a type its columns use must be
// visible from the file's top level.
enum Priority: Int, QueryBindable, Sendable, Codable {
    case low = 1, medium, high
}

public enum ModelsAndQueries {
    @Table
    struct RemindersList: Sendable, Codable {
        let id: Int
        var title: String
    }

    @Table
    struct Reminder: Sendable, Codable {
        let id: Int
        var listID: Int
        var title: String
        var notes: String?
        var dueDate: Date?
        var priority: Priority?
        var isDone: Bool = false
    }

    @Table
    struct Tag: Sendable {
        let id: Int
        var name: String
        var uses: Int = 0
    }

    @Table
    struct ReminderTag: Sendable {
        let id: Int
        var reminderID: Int
        var tagID: Int
    }

    @Table("events") @BoutiqueTable(strict: true)
    struct Event: Sendable {
        @Column(primaryKey: true) let code: String
        @Column("starts_at", as: Date.ISO8601Representation.self) var startsAt: Date
        @Column(as: Date.UnixTimeRepresentation.self) var cancelledAt: Date?
        @Column(as: JSONRepresentation<[String]>.self) var speakers: [String] = []
        @Column(generated: .virtual("lower(code)")) let lowerCode: String
        @Ephemeral var isExpanded = false
    }

    static let migrations = BoutiqueMigrationPlan {
        BoutiqueMigration("v1_reminders") { conn in
            try conn.execute("""
                CREATE TABLE remindersList (id INTEGER PRIMARY KEY, title TEXT NOT NULL);
                CREATE TABLE reminder (
                    id INTEGER PRIMARY KEY,
                    listID INTEGER NOT NULL REFERENCES remindersList(id),
                    title TEXT NOT NULL,
                    notes TEXT,
                    dueDate REAL,
                    priority INTEGER,
                    isDone INTEGER NOT NULL DEFAULT 0
                );
                CREATE TABLE tag (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, uses INTEGER NOT NULL DEFAULT 0);
                CREATE TABLE reminderTag (
                    id INTEGER PRIMARY KEY,
                    reminderID INTEGER NOT NULL REFERENCES reminder(id),
                    tagID INTEGER NOT NULL REFERENCES tag(id)
                );
                """)
        }
        BoutiqueMigration("v2_events") { conn in
            try conn.execute("""
                CREATE TABLE "events" ("code" TEXT PRIMARY KEY NOT NULL, "starts_at" TEXT NOT NULL,
                  "cancelledAt" INTEGER, "speakers" TEXT NOT NULL,
                  "lowerCode" TEXT GENERATED ALWAYS AS (lower(code)) VIRTUAL) STRICT
                """)
        }
    }

    /// The DDL `@BoutiqueTable` renders for ``Event``.
    public static func eventDDL() -> String {
        let ddl = Event.createTableSQL
        // CREATE TABLE "events" ("code" TEXT PRIMARY KEY NOT NULL, "starts_at" TEXT NOT NULL,
        //   "cancelledAt" INTEGER, "speakers" TEXT NOT NULL,
        //   "lowerCode" TEXT GENERATED ALWAYS AS (lower(code)) VIRTUAL) STRICT
        return ddl
    }

    /// Inserts the rows the other listings read.
    static func seed(_ conn: DatabaseConnection) throws {
        try RemindersList.insert {
            RemindersList(id: 1, title: "Home")
            RemindersList(id: 2, title: "Work")
        }.execute(conn)

        try Reminder.insert {
            Reminder(id: 1, listID: 1, title: "Groceries", notes: "Milk", priority: .high)
            Reminder(id: 2, listID: 1, title: "Haircut", isDone: true)
            Reminder.Draft(listID: 2, title: "Email the team", dueDate: Date(timeIntervalSince1970: 100))
        }.execute(conn)

        try Tag.insert {
            for (id, name) in [(1, "home"), (2, "errand")] { Tag(id: id, name: name) }
        }.execute(conn)
        try ReminderTag.insert { ReminderTag(id: 1, reminderID: 1, tagID: 1) }.execute(conn)
    }

    /// Runs each of the article's reads and writes; returns a line per result, for the tests.
    @MainActor
    public static func run() async throws -> [String] {
        let db = try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: migrations)
        try await db.write { conn in try seed(conn) }
        var lines = try await db.read { conn in try selects(conn) + joins(conn) + optionals(conn) }
        lines += try await db.write { conn in try sqlText(conn) + writes(conn) }
        lines += try await db.read { conn in try streaming(conn) }
        await db.close()
        return lines
    }

    static func selects(_ conn: DatabaseConnection) throws -> [String] {
        let open = try Reminder.where { !$0.isDone }
            .order { ($0.priority.desc(nulls: .last), $0.title) }
            .limit(10)
            .fetchAll(conn)

        let titles = try Reminder.all.select { $0.title }.fetchAll(conn)                    // [String]
        let pairs = try Reminder.all.select { ($0.id, $0.dueDate) }.fetchAll(conn)         // [(Int, Date?)]
        let groceries = try Reminder.find(1).fetchOne(conn)                                 // Reminder?
        let openCount = try Reminder.where { !$0.isDone }.fetchCount(conn)                 // Int

        let perList = try Reminder.all
            .group { $0.listID }
            .having { $0.id.count() > 1 }
            .select { ($0.listID, $0.id.count(), $0.dueDate.max()) }                        // [(Int, Int, Date?)]
            .fetchAll(conn)

        return [
            open.map(\.title).joined(separator: ","), titles.joined(separator: ","), "\(pairs.count)",
            groceries?.title ?? "-", "\(openCount)", perList.map { "\($0.0):\($0.1)" }.joined(separator: ","),
        ]
    }

    @Selection
    struct ListSummary: Sendable {
        let title: String
        let openCount: Int
    }

    static func joins(_ conn: DatabaseConnection) throws -> [String] {
        let tagged = try Reminder.all
            .join(ReminderTag.all) { $0.id == $1.reminderID }
            .join(Tag.all) { $1.tagID == $2.id }
            .where { reminder, _, tag in !reminder.isDone && tag.name == "home" }
            .select { ($0.title, $2.name) }                                                 // [(String, String)]
            .fetchAll(conn)

        let lists = try RemindersList.all
            .leftJoin(Reminder.where { !$0.isDone }) { $0.id == $1.listID }
            .order { list, _ in list.title }
            .fetchAll(conn)                                                                 // [(RemindersList, Reminder?)]

        let summaries = try RemindersList.all
            .leftJoin(Reminder.where { !$0.isDone }) { $0.id == $1.listID }
            .group { list, _ in list.id }
            .select { ListSummary.Columns(title: $0.title, openCount: $1.id.count()) }       // [ListSummary]
            .fetchAll(conn)

        return [
            tagged.map { "\($0.0)#\($0.1)" }.joined(separator: ","),
            lists.map { "\($0.0.title):\($0.1?.title ?? "none")" }.joined(separator: ","),
            summaries.map { "\($0.title)=\($0.openCount)" }.joined(separator: ","),
        ]
    }

    static func optionals(_ conn: DatabaseConnection) throws -> [String] {
        let undated = try Reminder.where { $0.dueDate == nil }.fetchCount(conn)            // "dueDate" IS ?
        let urgent = try Reminder.where { $0.priority == .high }.fetchCount(conn)          // "priority" IS ?
        let withNotes = try Reminder.where { ($0.notes ?? "") != "" }.fetchCount(conn)     // coalesce("notes", ?)
        let lengths = try Reminder.all.select { $0.notes.length() }.fetchAll(conn)         // [Int?]
        return ["\(undated)", "\(urgent)", "\(withNotes)", lengths.map { $0.map(String.init) ?? "nil" }.joined(separator: ",")]
    }

    static func writes(_ conn: DatabaseConnection) throws -> [String] {
        try Reminder.insert {
            Reminder.Draft(listID: 1, title: "Water the plants")                             // id assigned by SQLite
            for title in ["Book flights", "Pack"] {
                Reminder.Draft(listID: 2, title: title, priority: .medium)
            }
        }.execute(conn)

        try Reminder.where { $0.listID == 2 }.update {
            $0.title = $0.title.upper()
            $0.dueDate = nil
            $0.priority = .low
            $0.isDone = !$0.isDone
        }.execute(conn)

        try Tag.upsert(onConflict: \.name) {
            Tag(id: 3, name: "home", uses: 1)
        } doUpdate: { tag, excluded in
            tag.uses += excluded.uses
        }.execute(conn)

        let removed = try Reminder.where { $0.isDone }.delete().returning { $0.title }.fetchAll(conn)

        let updated = try Reminder.update { $0.notes = "checked" }.where { $0.notes == nil }.returning { $0.id }.fetchAll(conn)
        let uses = try Tag.where { $0.name == "home" }.select { $0.uses }.fetchOne(conn)
        return [removed.joined(separator: ","), "\(updated.count)", "\(uses ?? -1)"]
    }

    static func sqlText(_ conn: DatabaseConnection) throws -> [String] {
        let word = "milk"
        let matches = try Reminder.where { #sql("\($0.notes) LIKE '%' || \(word) || '%'", as: Bool.self) }
            .fetchAll(conn)

        let count = try #sql("SELECT count(*) FROM \(Reminder.self) WHERE \(Reminder.columns.isDone) = \(false)", as: Int.self)
            .fetchOne(conn)

        try #sql("UPDATE \(Tag.self) SET uses = uses + \(1) WHERE name = \(word)").execute(conn)

        let query = Reminder.where { $0.title == "Groceries" }.order { $0.id }
        let sql = query.sql             // SELECT "reminder"."id", … WHERE ("reminder"."title" = ?) ORDER BY "reminder"."id"
        let bindings = query.bindings   // [.text("Groceries")]

        return ["\(matches.count)", "\(count ?? -1)", sql, "\(bindings)"]
    }

    static func streaming(_ conn: DatabaseConnection) throws -> [String] {
        var titles: [String] = []
        try Reminder.all.order { $0.id }.forEach(conn) { reminder in
            titles.append(reminder.title)
        }

        let cursor = try Reminder.where { !$0.isDone }.fetchCursor(conn)
        while let reminder = try cursor.next() {
            titles.append(reminder.title)
        }
        return [titles.joined(separator: ",")]
    }
}
