import BoutiqueDB
import Foundation

// The listings of the Models and Queries article's sections on statements: compound selects,
// subqueries, inserts from selects and common table expressions.

extension ModelsAndQueries {
    static func combinedSelects(_ conn: DatabaseConnection) throws -> ([String], [Int]) {
        let names = try Reminder.select { $0.title }
            .union(RemindersList.select { $0.title })
            .union(all: true, Values("Inbox"))
            .fetchAll(conn)
        let unused = try RemindersList.select(\.id).except(Reminder.select(\.listID)).fetchAll(conn)
        return (names, unused)
    }

    static func subqueries(_ conn: DatabaseConnection) throws -> Int {
        let counts = try RemindersList.select { list in
            (list.title, Reminder.where { $0.listID == list.id }.count())
        }.fetchAll(conn)
        let used = try RemindersList.where { list in Reminder.where { $0.listID == list.id }.exists() }.fetchAll(conn)
        let untagged = try Reminder.where { $0.id.notIn(ReminderTag.select(\.reminderID)) }.fetchAll(conn)
        return counts.count + used.count + untagged.count
    }

    static func insertSelect(_ conn: DatabaseConnection) throws {
        try Tag.insert { $0.name } select: { RemindersList.select { $0.title.lower() } }.execute(conn)
    }

    static func commonTableExpression(_ conn: DatabaseConnection) throws -> [String] {
        let busyTags = try With {
            Tag.where { $0.uses > 1 }
        } query: {
            Tag.order(by: \.name).select(\.name)
        }.fetchAll(conn)
        return busyTags
    }
}
