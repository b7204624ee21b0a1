import BoutiqueDB
import Foundation

/// Compound selects, subqueries, outer joins, rows of values, inserts from selects and common table
/// expressions, spelled as StructuredQueries spells them.
public enum StatementShapes {
    public static func names() -> CompoundSelect<String> {
        Reminder.select { $0.title }
            .union(RemindersList.select { $0.title })
            .union(all: true, Tag.select { $0.name })
    }

    public static func sharedTitles() -> CompoundSelect<String> {
        Reminder.select(\.title).intersect(RemindersList.select(\.title)).except(Tag.select(\.name))
    }

    public static func taggedRowsAndValues() -> CompoundSelect<(String, String)> {
        Reminder.select { ("reminder", $0.title) }.union(Values("tag", "home")).limit(10)
    }

    public static func listsWithOpenReminders() -> Select<RemindersList.TableColumns, RemindersList> {
        RemindersList.where { list in Reminder.where { $0.listID == list.id && !$0.isDone }.exists() }
    }

    public static func untaggedReminders() -> Select<Reminder.TableColumns, Reminder> {
        Reminder.where { $0.id.notIn(ReminderTag.select(\.reminderID)) }
    }

    public static func listCounts() -> Select<RemindersList.TableColumns, (String, Int)> {
        RemindersList.select { list in (list.title, Reminder.where { $0.listID == list.id }.count()) }
    }

    public static func anyTags() -> Select<Reminder.TableColumns, Reminder> {
        Reminder.where { _ in Tag.exists() }.order(by: \.title).offset(5)
    }

    public static func doneTitles() -> Select<Reminder.TableColumns, String> {
        Reminder.where(\.isDone).group(by: \.listID).select(\.title)
    }

    public static func listsRight() -> Select<(OptionalTableColumns<Reminder.TableColumns>, RemindersList.TableColumns), (Reminder?, RemindersList)> {
        Reminder.all.rightJoin(RemindersList.all) { $0.listID == $1.id }
    }

    public static func listsFull() -> Select<(OptionalTableColumns<Reminder.TableColumns>, OptionalTableColumns<RemindersList.TableColumns>), (Reminder?, RemindersList?)> {
        Reminder.fullJoin(RemindersList.all) { $0.listID == $1.id }
    }

    public static func tagsFromLists() -> InsertSelect<Tag> {
        Tag.insert { $0.name } select: { RemindersList.select { $0.title.lower() } }
    }

    public static func tagFromValues() -> InsertSelect<Tag> {
        Tag.insert { ($0.name, $0.uses) } select: { Values("vacation", 0) }
    }

    public static func usedTagNames() -> With<Select<Tag.TableColumns, String>> {
        With {
            Tag.where { $0.uses > 0 }
        } query: {
            Tag.order(by: \.name).select(\.name)
        }
    }
}
