import BoutiqueDB
import Foundation

/// The demo's shared reminders: lists that their owner shares, and the reminders that follow them.
@Table("remindersList")
struct RemindersList: Sendable, Equatable {
    @Column(primaryKey: true) let id: UUID
    var title: String
}

@Table
struct Reminder: Sendable, Equatable {
    @Column(primaryKey: true) let id: UUID
    var listID: UUID
    var title: String
}

enum SharingMigrations {
    static let plan = BoutiqueMigrationPlan {
        BoutiqueMigration("v1_create_reminders") { conn in
            try conn.execute("""
                CREATE TABLE remindersList(id TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL);
                CREATE TABLE reminder(
                    id TEXT PRIMARY KEY NOT NULL,
                    listID TEXT NOT NULL REFERENCES remindersList(id) ON DELETE CASCADE,
                    title TEXT NOT NULL
                );
                """)
        }
    }

    /// Each list is a space its creator shares; reminders live in their list's.
    static let rulesJSON = #"{"roots": ["remindersList"], "follows": {"reminder": "listID"}}"#
}
