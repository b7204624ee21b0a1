import BoutiqueDB
import Foundation

// A reminders app's models, the way a user writes them from the README: lists, reminders with
// optional fields, tags (unique by name) joined to reminders, and the members reminders are assigned to.

public enum Priority: Int, QueryBindable, Sendable, Codable {
    case low = 1, medium, high
}

@Table
public struct RemindersList: Sendable, Equatable {
    public let id: Int
    public var title: String
    public var color: String?

    public init(id: Int, title: String, color: String? = nil) {
        self.id = id
        self.title = title
        self.color = color
    }
}

@Table
public struct Reminder: Sendable, Equatable, Codable {
    public let id: Int
    public var listID: Int
    public var title: String
    public var notes: String?
    public var dueDate: Date?
    public var priority: Priority?
    public var estimatedMinutes: Int?
    public var isDone: Bool = false
    public var assigneeID: Int?

    public init(
        id: Int, listID: Int, title: String, notes: String? = nil, dueDate: Date? = nil, priority: Priority? = nil,
        estimatedMinutes: Int? = nil, isDone: Bool = false, assigneeID: Int? = nil
    ) {
        self.id = id
        self.listID = listID
        self.title = title
        self.notes = notes
        self.dueDate = dueDate
        self.priority = priority
        self.estimatedMinutes = estimatedMinutes
        self.isDone = isDone
        self.assigneeID = assigneeID
    }
}

@Table
public struct Tag: Sendable, Equatable {
    public let id: Int
    public var name: String
    public var uses: Int = 0

    public init(id: Int, name: String, uses: Int = 0) {
        self.id = id
        self.name = name
        self.uses = uses
    }
}

@Table
public struct ReminderTag: Sendable, Equatable {
    public let id: Int
    public var reminderID: Int
    public var tagID: Int

    public init(id: Int, reminderID: Int, tagID: Int) {
        self.id = id
        self.reminderID = reminderID
        self.tagID = tagID
    }
}

@Table
public struct Member: Sendable, Equatable {
    public let id: Int
    public var name: String

    public init(id: Int, name: String) {
        self.id = id
        self.name = name
    }
}

public enum RemindersMigrations {
    public static let plan = BoutiqueMigrationPlan {
        BoutiqueMigration("v1_reminders") { conn in
            try conn.execute("""
                CREATE TABLE remindersList (id INTEGER PRIMARY KEY, title TEXT NOT NULL, color TEXT);
                CREATE TABLE member (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE reminder (
                    id INTEGER PRIMARY KEY,
                    listID INTEGER NOT NULL REFERENCES remindersList(id),
                    title TEXT NOT NULL,
                    notes TEXT,
                    dueDate REAL,
                    priority INTEGER,
                    estimatedMinutes INTEGER,
                    isDone INTEGER NOT NULL DEFAULT 0,
                    assigneeID INTEGER REFERENCES member(id)
                );
                CREATE TABLE tag (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, uses INTEGER NOT NULL DEFAULT 0);
                CREATE TABLE reminderTag (
                    id INTEGER PRIMARY KEY,
                    reminderID INTEGER NOT NULL REFERENCES reminder(id),
                    tagID INTEGER NOT NULL REFERENCES tag(id)
                );
                """)
        }
    }

    /// Two lists (one empty), four reminders, three tags and two members.
    public static func seed(_ conn: DatabaseConnection) throws {
        try RemindersList.insert {
            RemindersList(id: 1, title: "Home", color: "blue")
            RemindersList(id: 2, title: "Work")
            RemindersList(id: 3, title: "Empty")
        }.execute(conn)
        try Member.insert {
            Member(id: 1, name: "Ada")
            Member(id: 2, name: "Grace")
        }.execute(conn)
        try Reminder.insert {
            Reminder(id: 1, listID: 1, title: "Groceries", notes: "Milk", priority: .high, estimatedMinutes: 30, assigneeID: 1)
            Reminder(id: 2, listID: 1, title: "Haircut", isDone: true)
            Reminder(id: 3, listID: 2, title: "Email boss", dueDate: Date(timeIntervalSince1970: 100), priority: .low, estimatedMinutes: 5, assigneeID: 2)
            Reminder(id: 4, listID: 2, title: "", notes: "")
        }.execute(conn)
        try Tag.insert {
            Tag(id: 1, name: "home", uses: 2)
            Tag(id: 2, name: "errand", uses: 1)
            Tag(id: 3, name: "work", uses: 1)
        }.execute(conn)
        try ReminderTag.insert {
            ReminderTag(id: 1, reminderID: 1, tagID: 1)
            ReminderTag(id: 2, reminderID: 1, tagID: 2)
            ReminderTag(id: 3, reminderID: 2, tagID: 1)
            ReminderTag(id: 4, reminderID: 3, tagID: 3)
        }.execute(conn)
    }
}
