import BoutiqueDB
import Foundation

// The listings of the Models and Queries article's section on triggers and views.

extension ModelsAndQueries {
    @Table
    struct ReminderWithList: Sendable {
        @Column(primaryKey: true) let reminderID: Int
        let reminderTitle: String
        let listTitle: String
    }

    /// Opens the article's database with its view and triggers, writes through them, and returns the
    /// view's rows and the tags' uses, for the tests.
    @MainActor
    public static func runTriggersAndViews() async throws -> [String] {
        let url = BoutiqueDB.inMemoryURL()

        let view = ReminderWithList.createTemporaryView(
            as: Reminder.join(RemindersList.all) { $0.listID.eq($1.id) }
                .select { ReminderWithList.Columns(reminderID: $0.id, reminderTitle: $0.title, listTitle: $1.title) }
        )
        let insertThroughView = ReminderWithList.createTemporaryTrigger(
            insteadOf: .insert { new in
                Reminder.insert { ($0.title, $0.listID) } values: {
                    (new.reminderTitle, RemindersList.select(\.id).where { $0.title.eq(new.listTitle) })
                }
            }
        )

        let countUses = ReminderTag.createTemporaryTrigger(
            after: .insert { new in
                Tag.where { $0.id.eq(new.tagID) }.update { $0.uses = $0.uses + 1 }
            }
        )
        let reopenWhenRetitled = Reminder.createTemporaryTrigger(
            after: .update(of: { $0.title }) { _, new in
                Reminder.where { $0.id.eq(new.id) }.update { $0.isDone = false }
            } when: { old, new in
                old.title.neq(new.title)
            }
        )

        var options = BoutiqueDB.Options()
        options.prepareDatabase { conn in
            try conn.execute(view)
            guard conn.isWriter else { return }
            try conn.execute(insertThroughView)
            try conn.execute(countUses)
            try conn.execute(reopenWhenRetitled)
        }
        let db = try await BoutiqueDB.open(url: url, migrations: migrations, options: options)

        try await db.write { conn in try seed(conn) }
        let rows = try await db.write { conn in
            try ReminderTag.insert { ReminderTag(id: 2, reminderID: 2, tagID: 1) }.execute(conn)
            try Reminder.where { $0.id == 2 }.update { $0.title = "Haircut at 5" }.execute(conn)
            try ReminderWithList.insert { ReminderWithList.Draft(reminderTitle: "Call Mum", listTitle: "Home") }.execute(conn)
            return try ReminderWithList.order { $0.listTitle }.fetchAll(conn)
        }
        let uses = try await db.read { conn in try Tag.order { $0.id }.select { $0.uses }.fetchAll(conn) }
        let reopened = try await db.read { conn in try Reminder.find(2).select { $0.isDone }.fetchOne(conn) }
        await db.close()
        return rows.map { "\($0.listTitle): \($0.reminderTitle)" } + ["uses \(uses)", "reopened \(reopened == false)"]
    }
}
