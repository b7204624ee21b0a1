import BoutiqueDB
import BoutiqueSync
import BoutiqueSyncServer
import Foundation

// The Models and Queries article's reminders models made to sync: UUID keys, tag names that may repeat.

public enum SyncedReminders {
    @Table
    struct RemindersList: Sendable, Codable {
        let id: UUID
        var title: String
    }

    @Table
    struct Reminder: Sendable, Codable {
        let id: UUID
        var listID: UUID
        var title: String
        var isDone: Bool = false
    }

    @Table
    struct Tag: Sendable {
        let id: UUID
        var name: String
    }

    @Table
    struct ReminderTag: Sendable {
        let id: UUID
        var reminderID: UUID
        var tagID: UUID
    }

    static let migrations = BoutiqueMigrationPlan {
        BoutiqueMigration("v1_synced_reminders") { conn in
            try conn.execute("""
                CREATE TABLE remindersList (id TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL);
                CREATE TABLE reminder (id TEXT PRIMARY KEY NOT NULL, listID TEXT NOT NULL REFERENCES remindersList(id),
                  title TEXT NOT NULL, isDone INTEGER NOT NULL DEFAULT 0);
                CREATE TABLE tag (id TEXT PRIMARY KEY NOT NULL, name TEXT NOT NULL);
                CREATE TABLE reminderTag (id TEXT PRIMARY KEY NOT NULL, reminderID TEXT NOT NULL REFERENCES reminder(id),
                  tagID TEXT NOT NULL REFERENCES tag(id));
                """)
        }
    }

    static let tables: [any Table.Type] = [RemindersList.self, Reminder.self, Tag.self, ReminderTag.self]

    /// Why sync refuses the article's own models (the table it names and its reason), or `nil` when it
    /// takes them.
    @MainActor
    public static func refusalOfTheLocalModels() async throws -> (table: String, reason: String)? {
        let db = try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: ModelsAndQueries.migrations)
        defer { Task { await db.close() } }
        let server = SyncServer(store: try await SQLiteSyncStore.open(url: BoutiqueDB.inMemoryURL()))
        let local: [any Table.Type] = [
            ModelsAndQueries.RemindersList.self, ModelsAndQueries.Reminder.self, ModelsAndQueries.Tag.self, ModelsAndQueries.ReminderTag.self,
        ]
        do {
            _ = try await BoutiqueSync(database: db, tables: local, server: .inProcess(server))
            return nil
        } catch BoutiqueError.syncConfiguration(let table, let reason) {
            return (table, reason)
        }
    }

    /// Two devices each tag a reminder "home" offline, then sync: both tags and every row reach both.
    /// Returns the tags each device holds after.
    @MainActor
    public static func twoDevicesTagHome() async throws -> (phone: [String], laptop: [String]) {
        let server = SyncServer(store: try await SQLiteSyncStore.open(url: BoutiqueDB.inMemoryURL()))
        let phone = try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: migrations)
        let laptop = try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: migrations)
        let phoneSync = try await BoutiqueSync(database: phone, tables: tables, server: .inProcess(server))
        let laptopSync = try await BoutiqueSync(database: laptop, tables: tables, server: .inProcess(server))
        for db in [phone, laptop] {
            try await db.write { conn in
                let list = RemindersList(id: UUID(), title: "Chores")
                let reminder = Reminder(id: UUID(), listID: list.id, title: "Vacuum")
                let tag = Tag(id: UUID(), name: "home")
                try RemindersList.insert { list }.execute(conn)
                try Reminder.insert { reminder }.execute(conn)
                try Tag.insert { tag }.execute(conn)
                try ReminderTag.insert { ReminderTag(id: UUID(), reminderID: reminder.id, tagID: tag.id) }.execute(conn)
            }
        }
        _ = try await phoneSync.synchronize()
        _ = try await laptopSync.synchronize()
        _ = try await phoneSync.synchronize()
        let phoneTags = try await phone.read { conn in try Tag.all.select(\.name).fetchAll(conn) }
        let laptopTags = try await laptop.read { conn in try Tag.all.select(\.name).fetchAll(conn) }
        await phone.close()
        await laptop.close()
        return (phoneTags, laptopTags)
    }
}
