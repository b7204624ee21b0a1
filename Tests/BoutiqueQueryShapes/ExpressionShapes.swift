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

/// SQLite's scalar functions in the shapes users write them on `@Table` columns.
public enum ScalarFunctionShapes {
    /// Notes that mention a word, with an empty note read as none and a missing estimate as zero.
    public static func notesMentioning(_ word: String) -> Select<Reminder.TableColumns, (String, String?, Int)> {
        Reminder
            .where { $0.notes.instr(word) > 0 }
            .select { ($0.title.replace("  ", " ").trim(), $0.notes.nullif(""), $0.estimatedMinutes.ifnull(0)) }
    }

    /// Titles shortened to a prefix, with their byte counts and quoted forms.
    public static func shortTitles(length: Int) -> Select<Reminder.TableColumns, (String, Int, String)> {
        Reminder.all.select { ($0.title.substr(1, length), $0.title.octetLength(), $0.title.quote()) }
    }

    /// Open reminders of a list, the planner told that most are done and that few have no estimate.
    public static func openWithHints(listID: Int) -> Select<Reminder.TableColumns, Reminder> {
        Reminder.where { $0.listID.eq(listID).likely().and($0.isDone.not().likelihood(0.2)).and($0.estimatedMinutes.is(nil).unlikely().not()) }
    }

    /// Titles with a random 8-byte salt and a zero-filled 4-byte pad, and the lengths of both.
    public static func saltedTitles() -> Select<Reminder.TableColumns, (String, [UInt8], Int, Int)> {
        Reminder.all.select { ($0.title, 8.randomblob(), 8.randomblob().length(), 4.zeroblob().length()) }
    }
}

// An app's own extensions of types that are query values too (integers, dates) call Swift's and C's
// math functions unqualified: no query method may take those names and hide them.
extension Int {
    /// Half, rounded with C's `round(_:)`.
    public var roundedHalf: Double { round(Double(self) / 2) }

    /// The distance from zero, with Swift's `abs(_:)`.
    public var distanceFromZero: Int { abs(self) }
}

extension Date {
    /// Seconds from now, either way, with Swift's `abs(_:)`.
    public var secondsFromNow: Double { abs(timeIntervalSinceNow) }
}
