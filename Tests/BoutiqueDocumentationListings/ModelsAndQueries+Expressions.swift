import BoutiqueDB

// The listings of the Models and Queries article's sections on expressions and functions.

extension ModelsAndQueries {
    static func comparingWithMethods(_ conn: DatabaseConnection) throws -> [String] {
        let urgent = try Reminder.where {
            $0.listID.eq(1).and($0.isDone.not()).and($0.priority.gte(.medium))
        }
        .fetchAll(conn)

        let none = try Reminder.where { $0.priority.eq(nil) }.fetchAll(conn)       // `=` NULL: no rows
        let unrated = try Reminder.where { $0.priority.is(nil) }.fetchAll(conn)    // `IS` NULL
        return ["\(urgent.count)", "\(none.count)", "\(unrated.count)"]
    }
}

extension ModelsAndQueries {
    static func callingFunctions(_ conn: DatabaseConnection) throws -> Int {
        let cards = try Reminder
            .where { $0.title.instr("boss") > 0 }
            .select { ($0.title.replace("boss", "team"), $0.notes.nullif(""), $0.title.substr(1, 5)) }
            .fetchAll(conn)
        return cards.count
    }
}

extension ModelsAndQueries {
    static func blobsAndHints(_ conn: DatabaseConnection) throws -> Int {
        let salted = try Reminder
            .where { $0.isDone.not().likely() }
            .select { ($0.title, 16.randomblob(), $0.notes.length()) }
            .fetchAll(conn)
        return salted.count
    }
}

extension ModelsAndQueries {
    static func listsWithReminders(_ conn: DatabaseConnection) throws -> Int {
        let lists = try RemindersList
            .leftJoin(Reminder.all) { $0.id == $1.listID }
            .group { list, _ in list.id }
            .select { ($0, $1.jsonGroupArray()) }
            .fetchAll(conn)                                              // [(RemindersList, [Reminder])]
        return lists.count
    }
}
