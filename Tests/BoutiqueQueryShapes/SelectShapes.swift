import BoutiqueDB
import Foundation

/// Wide selects, several ordering keys, optional aggregates and text functions.
public enum SelectShapes {
    /// Eight values of one table, without a `@Selection` type.
    public static func eightColumns() -> Select<
        Reminder.TableColumns, (Int, Int, String, String?, Date?, Priority?, Int?, Bool)
    > {
        Reminder.all
            .order { ($0.isDone, $0.priority.desc(), $0.listID, $0.id) }
            .select { ($0.id, $0.listID, $0.title, $0.notes, $0.dueDate, $0.priority, $0.estimatedMinutes, $0.isDone) }
    }

    /// Four ordering keys on a table's rows.
    public static func ordered() -> Select<Reminder.TableColumns, Reminder> {
        Reminder.order { ($0.isDone, $0.listID.desc(), $0.priority.desc(nulls: .last), $0.title) }
    }

    /// Aggregates of optional columns are optional once.
    public static func latestDueDate() -> Select<Reminder.TableColumns, Date?> {
        Reminder.all.select { $0.dueDate.max() }
    }

    public static func lowestPriority() -> Select<Reminder.TableColumns, Priority?> {
        Reminder.all.select { $0.priority.min() }
    }

    public static func totalMinutes() -> Select<Reminder.TableColumns, Int?> {
        Reminder.all.select { $0.estimatedMinutes.sum() }
    }

    public static func longestTitle() -> Select<Reminder.TableColumns, Int?> {
        Reminder.all.select { $0.title.length().max() }
    }

    /// Text compared without case, with the other collations SQLite has.
    public static func tag(named name: String) -> Select<Tag.TableColumns, Tag> {
        Tag.where { $0.name.collate(.nocase) == name }
    }

    public static func tagsByName() -> Select<Tag.TableColumns, String> {
        Tag.order { ($0.name.collate(.nocase), $0.name.collate(.binary), $0.name.collate(.rtrim)) }.select { $0.name }
    }

    /// Empty text, and text functions of optional columns.
    public static func untitled() -> Select<Reminder.TableColumns, Int> {
        Reminder.where { $0.title.isEmpty }.select { $0.id }
    }

    public static func notesShapes() -> Select<Reminder.TableColumns, (Int, Int?, String?, String?)> {
        Reminder.where { !$0.notes.isEmpty }
            .order { $0.id }
            .select { ($0.id, $0.notes.length(), $0.notes.lower(), $0.notes.upper()) }
    }

    /// Every reminder's id, for streaming.
    public static func allIDs() -> Select<Reminder.TableColumns, Int> {
        Reminder.all.order { $0.id }.select { $0.id }
    }
}
