import BoutiqueDB
import Foundation

/// Assignments to optional columns, in `update` closures: `nil`, literals, enum cases (with and
/// without the type), values of the wrapped type, and expressions.
public enum UpdateShapes {
    public static func clearDueDate(of id: Int) -> Update<Reminder> {
        Reminder.where { $0.id == id }.update { $0.dueDate = nil }
    }

    public static func prioritize(_ id: Int) -> Update<Reminder> {
        Reminder.where { $0.id == id }.update { $0.priority = .high }
    }

    public static func deprioritize(_ id: Int) -> Update<Reminder> {
        Reminder.where { $0.id == id }.update { $0.priority = Priority.low }
    }

    public static func schedule(_ id: Int, at date: Date, minutes: Int) -> Update<Reminder> {
        Reminder.where { $0.id == id }.update {
            $0.dueDate = date
            $0.estimatedMinutes = minutes
        }
    }

    public static func annotate(_ id: Int) -> Update<Reminder> {
        Reminder.where { $0.id == id }.update {
            $0.notes = "Call first"
            $0.estimatedMinutes = 15
            $0.assigneeID = nil
            $0.title = $0.title.upper()
            $0.isDone = !$0.isDone
        }
    }

    /// Arithmetic on the columns being updated, optional or not.
    public static func lengthen(_ id: Int) -> Update<Reminder> {
        Reminder.where { $0.id == id }.update {
            $0.estimatedMinutes = $0.estimatedMinutes * 2 + 5
            $0.listID = $0.listID + 1
        }
    }

    /// An optional column set to expressions of the wrapped type.
    public static func dueNowUnlessDue(_ id: Int, now: Date) -> Update<Reminder> {
        Reminder.where { $0.id == id }.update {
            $0.dueDate = $0.dueDate.coalesce(now)
            $0.estimatedMinutes = $0.listID
        }
    }

    /// An optional column set from another optional column (an expression of its own type).
    public static func copyNotesToColor() -> Update<RemindersList> {
        RemindersList.update { $0.color = $0.color.lower() }
    }
}

/// Optional fields of inserted and upserted rows.
public enum DraftShapes {
    public static func insertDrafts() -> Insert<Reminder> {
        Reminder.insert {
            Reminder.Draft(listID: 2, title: "Plan offsite", notes: nil, dueDate: nil, priority: .medium)
            Reminder.Draft(listID: 2, title: "Book room", priority: Priority.high, estimatedMinutes: 10)
        }
    }

    public static func upsertByKey() -> Insert<Reminder> {
        Reminder.upsert {
            Reminder(id: 2, listID: 1, title: "Haircut", notes: nil, priority: .low, isDone: false)
        }
    }
}
