import BoutiqueDB
import Foundation

// StructuredQueries' spellings from its articles on statements and expressions, as an app writes
// them after changing the import: each must type-check quickly and without a warning.

@Table
public struct Sensor: Sendable, Equatable {
    public let id: Int
    public var reading: Double
    public var delta: Int
    public var parentID: Int?

    public init(id: Int, reading: Double, delta: Int, parentID: Int? = nil) {
        self.id = id
        self.reading = reading
        self.delta = delta
        self.parentID = parentID
    }
}

public enum ParentSensor: AliasName {}

extension Reminder {
    /// Reusable scopes.
    public static let finished = Self.where { $0.isDone }
    public static let urgent = Self.where { $0.priority.is(Priority.high) }
    public static var open: Where<Reminder> { Self.where { !$0.isDone } }
}

extension Where<Reminder> {
    /// A helper on the filter type, chained like a scope.
    public var assigned: Self { self.where { $0.assigneeID.isNot(nil) } }
}

// An app's own extensions of numbers keep Swift's `abs(_:)` and C's `round(_:)`: the query methods
// of those names are not members of `Int`, `Double` or `Date`.
extension Int {
    public func shapesMagnitude() -> Int { abs(self) }
    public func shapesRounded(_ value: Double) -> Double { round(value) }
}

extension Date {
    public func shapesRounded(_ value: Double) -> Double { round(value) + abs(value) }
}

public enum ArticleSpellingShapes {
    // Selects
    public static func offsetAlone() -> Select<Reminder.TableColumns, Reminder> { Reminder.all.offset(10) }
    public static func limitAfterOffset() -> Select<Reminder.TableColumns, Reminder> {
        Reminder.limit(10).offset(10).limit(20)
    }
    public static func optionalOffset(_ offset: Int?) -> Select<Reminder.TableColumns, Reminder> {
        Reminder.limit(10).offset(offset)
    }
    public static func scopesAnded() -> Where<Reminder> { Reminder.finished.and(Reminder.urgent) }
    public static func scopesOred() -> Where<Reminder> { Reminder.finished.or(Reminder.urgent) }
    public static func chainedScopes() -> Where<Reminder> { Reminder.where { $0.listID == 1 }.open.assigned }
    public static func unscoped() -> Select<Reminder.TableColumns, Reminder> { Reminder.unscoped }
    public static func none() -> Select<Reminder.TableColumns, Reminder> { Reminder.none }

    // Operators
    public static func optionalKeyJoins() -> [any QueryStatement] {
        [
            Reminder.join(Member.all) { $0.assigneeID.eq($1.id) },
            Reminder.join(Member.all) { $0.assigneeID.neq($1.id) },
            Reminder.join(Member.all) { $0.assigneeID.is($1.id) },
            Reminder.join(Member.all) { $0.assigneeID.isNot($1.id) },
            Member.join(Reminder.all) { $0.id.eq($1.assigneeID) },
        ]
    }
    public static func columnsOfOneTable() -> [any QueryStatement] {
        [
            Reminder.where { $0.assigneeID.eq($0.listID) },
            Reminder.where { $0.listID.eq($0.id) },
            Reminder.where { $0.assigneeID.is($0.estimatedMinutes) },
        ]
    }
    public static func concatenation() -> Select<Reminder.TableColumns, String> {
        Reminder.select { $0.title + $0.title.lower() + "!" }
    }

    // Joins
    public static func outerJoins() -> [any QueryStatement] {
        [
            RemindersList.rightJoin(Reminder.all) { $0.id.eq($1.listID) },
            RemindersList.fullJoin(Reminder.all) { $0.id.eq($1.listID) },
            Sensor.leftJoin(Sensor.as(ParentSensor.self).all) { $0.parentID.eq($1.id) },
            Sensor.rightJoin(Sensor.as(ParentSensor.self).all) { $0.parentID == $1.id },
        ]
    }

    // Inserts
    public static func valuesWithLoop(_ titles: [String]) -> InsertValues<Reminder> {
        Reminder.insert { ($0.listID, $0.title) } values: {
            for title in titles { (1, title) }
        }
    }
    public static func valuesWithNil() -> InsertValues<Reminder> {
        Reminder.insert { ($0.listID, $0.title, $0.priority) } values: {
            (1, "Plan", nil)
            (2, "Book", .high)
        }
    }
    public static func oneColumnLoop(_ names: [String]) -> InsertValues<Tag> {
        Tag.insert { $0.name } values: { for name in names { name } }
    }
    public static func fromSelect() -> [any QueryStatement] {
        [
            Tag.insert { $0.name } select: { RemindersList.select { $0.title.lower() } },
            Reminder.insert { ($0.listID, $0.title) } select: { RemindersList.select { ($0.id, $0.title) } },
        ]
    }
    public static func conflicts() -> [InsertValues<Tag>] {
        [
            Tag.insert { ($0.name, $0.uses) } values: { ("a", 1) } onConflict: { $0.name } doUpdate: { tag, excluded in
                tag.uses = excluded.uses
            },
            Tag.insert { ($0.name, $0.uses) } values: { ("a", 1) } onConflict: { $0.name } doUpdate: { $0.uses += 1 },
            Tag.insert { ($0.name, $0.uses) } values: { ("a", 1) } onConflictDoUpdate: { $0.uses += 1 },
            Tag.insert { ($0.name, $0.uses) } values: { ("a", 1) } onConflict: { $0.name } doUpdate: { $0.name += "!" },
        ]
    }
    public static func defaultValues() -> InsertValues<Tag> { Tag.insert() }

    // Updates and deletes
    public static func updates() -> [Update<Reminder>] {
        [
            Reminder.update { $0.title += "!" },
            Reminder.update { $0.title.append("!") },
            Reminder.update { $0.isDone.toggle() },
            Reminder.find(1).update { $0.title += "!" },
            Reminder.update { $0.estimatedMinutes += 5 },
            Reminder.update { $0.estimatedMinutes /= 2 },
            Reminder.update { $0.listID.negate() },
            Reminder.update { $0.title.append(contentsOf: "?") },
        ]
    }
    public static func tagUses() -> Update<Tag> { Tag.update { $0.uses += 1 } }
    public static func deleteOne() -> Delete<Reminder> { Reminder.find(1).delete() }

    // Scalar functions
    public static func numericFunctions() -> Select<Sensor.TableColumns, (Int, Int, Double, Double, Double)> {
        Sensor.select { ($0.delta.abs(), $0.delta.sign(), $0.reading.round(), $0.reading.round(2), $0.reading.abs()) }
    }

    // Values of a subquery
    public static func existsValue() -> Values<Bool> { Values(Reminder.exists()) }
}

@Selection
public struct ReminderSummary: Sendable {
    public let id: Int
    public let title: String
    public let done: Bool
}

extension ArticleSpellingShapes {
    public static func chainedSelects() -> Select<Reminder.TableColumns, (Int, String, Bool)> {
        Reminder.select(\.id).select(\.title).select(\.isDone)
    }
    public static func chainedSelectsMapped() -> Select<Reminder.TableColumns, ReminderSummary> {
        Reminder.select(\.id).select { ($0.title, $0.isDone) }.map { id, title, done in
            ReminderSummary.Columns(id: id, title: title, done: done)
        }
    }
    public static func replacedSelection() -> Select<Reminder.TableColumns, String> {
        Reminder.where { $0.isDone }.select { $0.title }
    }
}

extension ArticleSpellingShapes {
    /// `+=` on a number as the one statement of an update inside a trigger's body.
    public static func countTagUsesInPlace() -> TemporaryTrigger<ReminderTag> {
        ReminderTag.createTemporaryTrigger(
            after: .insert { new in
                Tag.where { $0.id.eq(new.tagID) }.update { $0.uses += 1 }
            }
        )
    }
}
