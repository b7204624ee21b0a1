import BoutiqueDB
import Foundation

/// Predicates written with the method spellings of the comparison and logical operators.
public enum ExpressionShapes {
    /// Open reminders of a list whose estimate is within bounds.
    public static func openWithinEstimate(listID: Int, minutes: Int) -> Select<Reminder.TableColumns, Reminder> {
        Reminder.where {
            $0.listID.eq(listID)
                .and($0.isDone.not())
                .and($0.estimatedMinutes.lte(minutes).or($0.estimatedMinutes.is(nil)))
        }
    }

    /// Reminders whose list is not the given one, compared column to value and column to column.
    public static func elsewhere(listID: Int) -> Select<Reminder.TableColumns, Reminder> {
        Reminder.where { $0.listID.neq(listID).and($0.id.gt($0.listID)).and($0.id.gte(1)).and($0.id.lt(1000)) }
    }
}
