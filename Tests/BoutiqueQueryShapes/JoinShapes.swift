import BoutiqueDB
import Foundation

/// Joins of three to five tables, inner and left, whose closures receive every table.
public enum JoinShapes {
    /// Each reminder with each of its tags.
    public static func remindersWithTags() -> Select<
        (Reminder.TableColumns, ReminderTag.TableColumns, Tag.TableColumns), (String, String)
    > {
        Reminder.all
            .join(ReminderTag.all) { $0.id == $1.reminderID }
            .join(Tag.all) { $1.tagID == $2.id }
            .where { reminder, _, tag in !reminder.isDone || tag.name == "home" }
            .order { ($0.title, $2.name.desc()) }
            .select { ($0.title, $2.name) }
    }

    /// The other side of a self-join.
    public enum Sibling: AliasName {}

    /// Each reminder with the later reminders of its list: one table read twice, once under an alias.
    public static func reminderSiblings() -> Select<
        (Reminder.TableColumns, TableAlias<Reminder, Sibling>.TableColumns), (String, String)
    > {
        Reminder
            .join(Reminder.as(Sibling.self).all) { $0.listID == $1.listID && $0.id < $1.id }
            .where { _, sibling in !sibling.isDone }
            .order { ($0.id, $1.id) }
            .select { ($0.title, $1.title) }
    }

    /// The whole rows of a three-table join.
    public static func taggedReminders(named name: String) -> Select<
        (Reminder.TableColumns, ReminderTag.TableColumns, Tag.TableColumns), (Reminder, ReminderTag, Tag)
    > {
        Reminder.join(ReminderTag.all) { $0.id == $1.reminderID }
            .join(Tag.where { $0.name == name }) { $1.tagID == $2.id }
            .order { reminder, _, _ in reminder.id }
    }

    /// A select that chose a tuple of columns, joined with a table that only filters and pairs:
    /// the rows are the chosen values.
    public static func openReminderTitlesInList(named title: String) -> Select<
        (Reminder.TableColumns, RemindersList.TableColumns), (Int, String)
    > {
        Reminder.select { ($0.id, $0.title) }
            .join(RemindersList.where { $0.title == title }) { $0.listID == $1.id }
            .where { reminder, _ in !reminder.isDone }
            .order { reminder, _ in reminder.id }
    }

    /// Two values a select of lists chose beside two a select of reminders chose: both sides chose a
    /// tuple, `(Int, String, String, Bool)`. The condition is spelled `eq`, as StructuredQueries'
    /// articles write it: with `==` this expression takes the type checker about twice as long.
    public static func listsAndRemindersBothChosen() -> Select<
        (RemindersList.TableColumns, Reminder.TableColumns), (Int, String, String, Bool)
    > {
        RemindersList.select { ($0.id, $0.title) }
            .join(Reminder.select { ($0.title, $0.isDone) }) { $0.id.eq($1.listID) }
            .order { list, reminder in (list.id, reminder.id) }
    }

    /// A list's title beside the two values a select of reminders chose: `(String, String, Bool)`.
    public static func listTitlesWithReminderTitles() -> Select<
        (RemindersList.TableColumns, Reminder.TableColumns), (String, String, Bool)
    > {
        RemindersList.select(\.title)
            .join(Reminder.select { ($0.title, $0.isDone) }) { $0.id == $1.listID }
            .order { list, reminder in (list.id, reminder.id) }
    }

    public typealias FiveTables = (
        RemindersList.TableColumns, Reminder.TableColumns, ReminderTag.TableColumns, Tag.TableColumns,
        Member.TableColumns
    )

    /// Five tables, inner joins, eight selected values and four ordering keys.
    public static func everything() -> Select<FiveTables, (String, String, String, String, Int, Priority?, Date?, Bool)> {
        RemindersList.all
            .join(Reminder.all) { $0.id == $1.listID }
            .join(ReminderTag.all) { $1.id == $2.reminderID }
            .join(Tag.all) { $2.tagID == $3.id }
            .join(Member.all) { $1.assigneeID == $4.id }
            .where { list, reminder, _, tag, member in
                list.title != "Empty" && !reminder.isDone && tag.uses > 0 && member.name.length() > 0
            }
            .order { ($0.title, $4.name.desc(), $3.name, $1.id) }
            .select { ($0.title, $1.title, $3.name, $4.name, $2.id, $1.priority, $1.dueDate, $1.isDone) }
    }

    /// The handles of five left-joined tables: the tables after the first read as optional.
    public typealias FiveLeftJoinedTables = (
        RemindersList.TableColumns, OptionalTableColumns<Reminder.TableColumns>,
        OptionalTableColumns<ReminderTag.TableColumns>, OptionalTableColumns<Tag.TableColumns>,
        OptionalTableColumns<Member.TableColumns>
    )

    /// Five tables, left joins: every list, with `nil` where nothing matches.
    public static func everyList() -> Select<FiveLeftJoinedTables, (RemindersList, Reminder?, ReminderTag?, Tag?, Member?)> {
        RemindersList.all
            .leftJoin(Reminder.all) { $0.id == $1.listID }
            .leftJoin(ReminderTag.all) { $1.id == $2.reminderID }
            .leftJoin(Tag.all) { $2.tagID == $3.id }
            .leftJoin(Member.all) { $1.assigneeID == $4.id }
            .order { ($0.id, $1.id, $3.id, $4.id) }
    }

    /// A left join counted per list, grouped and filtered over the joined rows.
    public static func reminderCounts() -> Select<(RemindersList.TableColumns, OptionalTableColumns<Reminder.TableColumns>, OptionalTableColumns<Member.TableColumns>), (String, Int, Int)> {
        RemindersList.all
            .leftJoin(Reminder.all) { $0.id == $1.listID }
            .leftJoin(Member.all) { $1.assigneeID == $2.id }
            .group { list, _, _ in list.id }
            .having { _, reminder, _ in reminder.id.count() < 3 }
            .order { list, _, _ in list.title }
            .select { ($0.title, $1.id.count(), $2.id.count()) }
    }
}

/// A list with its reminders, read in one row.
@Selection
public struct ListWithReminders: Sendable {
    public let list: RemindersList
    @Column(as: [Reminder].JSONRepresentation.self) public let reminders: [Reminder]
}

/// Rows loaded as JSON objects through the models' `Codable` conformance.
public enum JSONObjectShapes {
    /// Every list with its reminders, none for an empty list.
    public static func listsWithReminders() -> Select<(RemindersList.TableColumns, OptionalTableColumns<Reminder.TableColumns>), ListWithReminders> {
        RemindersList
            .leftJoin(Reminder.all) { $0.id == $1.listID }
            .group { list, _ in list.id }
            .select { ListWithReminders.Columns(list: $0, reminders: $1.jsonGroupArray()) }
    }

    /// Each open reminder as a JSON object, beside its title.
    public static func openReminderObjects() -> Select<Reminder.TableColumns, (String, Reminder)> {
        Reminder.where { !$0.isDone }.select { ($0.title, $0.jsonObject()) }
    }
}

