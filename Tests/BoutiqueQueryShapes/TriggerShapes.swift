import BoutiqueDB
import Foundation

// Temporary views and triggers as a reminders app writes them, with StructuredQueries' spellings: a
// view of a join made writable by an INSTEAD OF trigger, triggers that keep counts, reopen, refill
// and touch rows, and the options that create them on every connection.

/// A reminder with its list's title: the rows of a view.
@Table @Selection
public struct ReminderWithList: Sendable, Equatable {
    @Column(primaryKey: true) public let reminderID: Int
    public let reminderTitle: String
    public let listTitle: String

    public init(reminderID: Int, reminderTitle: String, listTitle: String) {
        self.reminderID = reminderID
        self.reminderTitle = reminderTitle
        self.listTitle = listTitle
    }
}

public enum TriggerShapes {
    public static func reminderWithList() -> TemporaryView<ReminderWithList> {
        ReminderWithList.createTemporaryView(
            as: Reminder.join(RemindersList.all) { $0.listID.eq($1.id) }
                .select { ReminderWithList.Columns(reminderID: $0.id, reminderTitle: $0.title, listTitle: $1.title) }
        )
    }

    /// Inserting into the view inserts a reminder into the list of that title.
    public static func insertThroughReminderWithList() -> TemporaryTrigger<ReminderWithList> {
        ReminderWithList.createTemporaryTrigger(
            insteadOf: .insert { new in
                Reminder.insert { ($0.title, $0.listID) } values: {
                    (new.reminderTitle, RemindersList.select(\.id).where { $0.title.eq(new.listTitle) })
                }
            }
        )
    }

    /// Deleting from the view deletes the reminder.
    public static func deleteThroughReminderWithList() -> TemporaryTrigger<ReminderWithList> {
        ReminderWithList.createTemporaryTrigger(
            insteadOf: .delete { old in
                Reminder.where { $0.id.eq(old.reminderID) }.delete()
            }
        )
    }

    public static func countTagUses() -> TemporaryTrigger<ReminderTag> {
        ReminderTag.createTemporaryTrigger(
            after: .insert { new in
                Tag.where { $0.id.eq(new.tagID) }.update { $0.uses = $0.uses + 1 }
            }
        )
    }

    public static func uncountTagUses() -> TemporaryTrigger<ReminderTag> {
        ReminderTag.createTemporaryTrigger(
            after: .delete { old in
                Tag.where { $0.id.eq(old.tagID) }.update { $0.uses = $0.uses - 1 }
            }
        )
    }

    /// A reminder whose title changes is not done any more.
    public static func reopenWhenRetitled() -> TemporaryTrigger<Reminder> {
        Reminder.createTemporaryTrigger(
            after: .update(of: { $0.title }) { _, new in
                Reminder.where { $0.id.eq(new.id) }.update { $0.isDone = false }
            } when: { old, new in
                old.title.neq(new.title) && new.isDone
            }
        )
    }

    /// The last list deleted is replaced by an empty "Personal" one.
    public static func keepAList() -> TemporaryTrigger<RemindersList> {
        RemindersList.createTemporaryTrigger(
            after: .delete { _ in
                RemindersList.insert { $0.title } values: { "Personal" }
            } when: { _ in
                !RemindersList.exists()
            }
        )
    }

    /// A reminder given a due date gets an estimate if it has none.
    public static func estimateWhenScheduled() -> TemporaryTrigger<Reminder> {
        Reminder.createTemporaryTrigger(
            after: .update(of: { ($0.dueDate, $0.estimatedMinutes) }, touch: { $0.estimatedMinutes = 15 }) { _, new in
                new.estimatedMinutes.is(nil)
            }
        )
    }

    /// The view on every connection, the triggers on the writer, which alone writes.
    public static func options() -> DatabaseOptions {
        var options = DatabaseOptions()
        options.prepareDatabase { conn in
            try conn.execute(reminderWithList())
            guard conn.isWriter else { return }
            try conn.execute(insertThroughReminderWithList())
            try conn.execute(deleteThroughReminderWithList())
            try conn.execute(countTagUses())
            try conn.execute(uncountTagUses())
            try conn.execute(reopenWhenRetitled())
            try conn.execute(keepAList())
            try conn.execute(estimateWhenScheduled())
        }
        return options
    }
}
