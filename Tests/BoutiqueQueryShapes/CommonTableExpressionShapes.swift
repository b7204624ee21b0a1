import BoutiqueDB
import Foundation

/// The rows of a common table expression, declared with `@Selection` alone.
@Selection
public struct BusyList: Sendable {
    public let id: Int
    public let openCount: Int
}

/// A counter's rows, for a recursive common table expression.
@Selection
public struct Step: Sendable {
    public let value: Int
}

/// Common table expressions whose tables are `@Selection` types: read with `where`, `select`, `order`,
/// `limit`, `all`, a join and `in` of a subquery, and built recursively through a row's `union`.
public enum CommonTableExpressionShapes {
    /// Lists with more than `minimum` open reminders, as a CTE read by a subquery.
    public static func busyLists(minimum: Int) -> With<Select<RemindersList.TableColumns, RemindersList>> {
        With {
            Reminder
                .where { !$0.isDone }
                .group(by: \.listID)
                .having { $0.id.count() > minimum }
                .select { BusyList.Columns(id: $0.listID, openCount: $0.id.count()) }
        } query: {
            RemindersList
                .where { $0.id.in(BusyList.select { $0.id }) }
                .order(by: \.title)
        }
    }

    /// The CTE's rows joined to a stored table.
    public static func remindersOfBusyLists() -> With<Select<(Reminder.TableColumns, BusyList.TableColumns), (String, Int)>> {
        With {
            Reminder.group(by: \.listID).select { BusyList.Columns(id: $0.listID, openCount: $0.id.count()) }
        } query: {
            Reminder
                .join(BusyList.all) { $0.listID.eq($1.id) }
                .order { $1.openCount.desc() }
                .select { ($0.title, $1.openCount) }
        }
    }

    /// One to `count`, recursively.
    public static func steps(upTo count: Int) -> With<Select<Step.TableColumns, Step>> {
        With {
            Step(value: 1).union(all: true, Step.where { $0.value < count }.select { Step.Columns(value: $0.value + 1) })
        } query: {
            Step.order { $0.value.desc() }.limit(count)
        }
    }
}
