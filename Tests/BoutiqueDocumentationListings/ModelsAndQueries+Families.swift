import BoutiqueDB
import Foundation

// The listings of the Models and Queries article's sections on CASE, aggregate options, casts, dates
// and JSON.

extension ModelsAndQueries {
    static func caseExpressions(_ conn: DatabaseConnection) throws -> Int {
        let labels = try Reminder.select {
            ($0.title, Case($0.priority).when(Priority.low, then: "low").when(Priority.medium, then: "medium").else("high"))
        }
        .fetchAll(conn)                                                                   // [(String, String)]

        let openTitles = try Reminder.select { Case().when(!$0.isDone, then: $0.title) }
            .fetchAll(conn)                                                               // [String?]
        return labels.count + openTitles.count
    }
}

extension ModelsAndQueries {
    static func aggregateOptions(_ conn: DatabaseConnection) throws -> Int {
        let progress = try Reminder
            .all.group { $0.listID }
            .select { ($0.listID, $0.id.count(filter: $0.isDone), $0.title.groupConcat(", ", filter: !$0.isDone)) }
            .fetchAll(conn)                                                               // [(Int, Int, String?)]
        return progress.count
    }
}

extension ModelsAndQueries {
    static func casts(_ conn: DatabaseConnection) throws -> Int {
        let labels = try Reminder.select { $0.id.cast(as: String.self).concat(": ").concat($0.title) }
            .fetchAll(conn)                                                               // [String]
        return labels.count
    }
}

extension ModelsAndQueries {
    static func dateFunctions(_ conn: DatabaseConnection) throws -> Int {
        let thisWeek = try Event
            .where { $0.startsAt >= .now && $0.startsAt < .now(.days(7)) }
            .select { ($0.code, $0.startsAt.strftime("%Y-%m-%d"), $0.startsAt.hour) }
            .fetchAll(conn)                                                               // [(String, String?, Int)]
        return thisWeek.count
    }
}

extension ModelsAndQueries {
    @Table
    struct Talk: Sendable {
        let id: Int
        var title: String
        @Column(as: [String].JSONRepresentation.self) var tags: [String] = []
    }

    static func jsonFunctions(_ conn: DatabaseConnection) throws -> Int {
        let titles = try Reminder.all.group { $0.listID }
            .select { ($0.listID, $0.title.jsonGroupArray()) }
            .fetchAll(conn)                                                               // [(Int, [String])]
        let tagged = try Talk.where { $0.tags.jsonArrayLength() > 0 }.fetchAll(conn)
        return titles.count + tagged.count
    }
}

extension ModelsAndQueries {
    /// Runs the listings above on the seed rows (and two talks); returns the counts they give, in order.
    @MainActor
    public static func runFamilies() async throws -> [Int] {
        let db = try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: migrations)
        let counts = try await db.write { conn in
            try seed(conn)
            try conn.execute("""
                CREATE TABLE talk (id INTEGER PRIMARY KEY, title TEXT NOT NULL, tags TEXT NOT NULL);
                INSERT INTO talk (id, title, tags) VALUES (1, 'Queries', '["sql"]'), (2, 'Sync', '[]');
                """)
            return [
                try caseExpressions(conn), try aggregateOptions(conn), try casts(conn), try dateFunctions(conn),
                try jsonFunctions(conn),
            ]
        }
        await db.close()
        return counts
    }
}
