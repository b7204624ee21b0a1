import BoutiqueQueries
import BoutiqueSQLite
import BoutiqueTestSupport

/// The two tables the fuzzer queries, declared with the real macros.
enum FuzzModels {
    @Table("reminder")
    struct Reminder: Sendable, Equatable {
        let id: Int
        var title: String
        var isDone: Bool
        var priority: Int?
        var listID: Int
    }

    @Table("remindersList")
    struct RemindersList: Sendable, Equatable {
        let id: Int
        var name: String
    }

    static let schema = """
        CREATE TABLE remindersList (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE reminder (
            id INTEGER PRIMARY KEY, title TEXT NOT NULL, isDone INTEGER NOT NULL,
            priority INTEGER, listID INTEGER NOT NULL
        );
        """

    /// A fresh database with random lists and reminders. Some reminders point at lists that do not
    /// exist, some lists have no reminders, a quarter of the priorities are NULL, and the text is hostile.
    static func makeDatabase(_ random: inout SeededRandom) throws -> (Connection, FuzzData) {
        let connection = try Connection(path: ":memory:")
        try connection.execute(schema)
        var data = FuzzData()
        var listIDs = Array(1...7)
        listIDs.shuffle(using: &random)
        for id in listIDs.prefix(random.int(in: 2...5)) {
            let name = HostileStrings.stored(&random)
            try connection.execute(
                "INSERT INTO remindersList (id, name) VALUES (?, ?)", [.integer(Int64(id)), .text(name)])
            data.names.append(name)
        }
        var reminderIDs = Array(1...60)
        reminderIDs.shuffle(using: &random)
        for id in reminderIDs.prefix(random.int(in: 12...36)) {
            let title = HostileStrings.stored(&random)
            let priority: DatabaseValue
            switch random.below(12) {
            case 0, 1, 2: priority = .null
            case 3: priority = .integer(random.chance(50) ? Int64.max : Int64.min)
            default: priority = .integer(Int64(random.int(in: -2...5)))
            }
            try connection.execute(
                "INSERT INTO reminder (id, title, isDone, priority, listID) VALUES (?, ?, ?, ?, ?)",
                [
                    .integer(Int64(id)), .text(title), .integer(random.chance(40) ? 1 : 0), priority,
                    .integer(Int64(random.int(in: 0...8))),
                ])
            data.titles.append(title)
        }
        return (connection, data)
    }
}

/// The text stored in a fuzz database, from which needles and patterns are cut.
struct FuzzData {
    var titles: [String] = []
    var names: [String] = []
    var all: [String] { titles + names }
}


/// Rows as plain values, the shape `Connection.fetchRows` returns, so that builder results and
/// hand-written results compare directly.
enum FuzzRows {
    static func values(_ reminder: FuzzModels.Reminder) -> [DatabaseValue] {
        [
            .integer(Int64(reminder.id)), .text(reminder.title), .integer(reminder.isDone ? 1 : 0),
            reminder.priority.map { .integer(Int64($0)) } ?? .null, .integer(Int64(reminder.listID)),
        ]
    }

    static func values(_ list: FuzzModels.RemindersList) -> [DatabaseValue] {
        [.integer(Int64(list.id)), .text(list.name)]
    }

    static func values(_ reminder: FuzzModels.Reminder?) -> [DatabaseValue] {
        reminder.map(values) ?? Array(repeating: .null, count: 5)
    }
}
