import BoutiqueQueries
import BoutiqueSQLite
import Foundation

// Models written out by hand, in the shape `@Table` generates, so that the query builder is tested
// on its own.

struct Reminder: Equatable, Sendable {
    var id: Int
    var title: String
    var isDone: Bool = false
    var priority: Int?
    var listID: Int
}

extension Reminder: PrimaryKeyedTable {
    struct TableColumns: PrimaryKeyedTableDefinition {
        typealias Root = Reminder
        typealias PrimaryKey = Int
        let id = TableColumn<Reminder, Int>("id")
        let title = TableColumn<Reminder, String>("title")
        let isDone = TableColumn<Reminder, Bool>("isDone")
        let priority = TableColumn<Reminder, Int?>("priority")
        let listID = TableColumn<Reminder, Int>("listID")
        var primaryKey: TableColumn<Reminder, Int> { id }
        static let allColumns: [ColumnSchema] = [
            .init("id", as: Int.self, primaryKey: true), .init("title", as: String.self),
            .init("isDone", as: Bool.self, defaultValue: .integer(0)), .init("priority", as: Int?.self),
            .init("listID", as: Int.self),
        ]
    }
    static let columns = TableColumns()
    static var tableName: String { "reminder" }

    init(decoder: inout RowDecoder) throws(BoutiqueError) {
        id = try decoder.decode(Int.self)
        title = try decoder.decode(String.self)
        isDone = try decoder.decode(Bool.self)
        priority = try decoder.decode(Int?.self)
        listID = try decoder.decode(Int.self)
    }

    func encodeColumns(into encoder: inout RowEncoder) {
        encoder.encode(id, as: Int.self)
        encoder.encode(title, as: String.self)
        encoder.encode(isDone, as: Bool.self)
        encoder.encode(priority, as: Int?.self)
        encoder.encode(listID, as: Int.self)
    }

    struct Draft: TableDraft {
        typealias Root = Reminder
        var id: Int?
        var title: String
        var isDone: Bool = false
        var priority: Int?
        var listID: Int

        func encodeColumns(into encoder: inout RowEncoder) {
            encoder.encode(id, as: Int?.self)
            encoder.encode(title, as: String.self)
            encoder.encode(isDone, as: Bool.self)
            encoder.encode(priority, as: Int?.self)
            encoder.encode(listID, as: Int.self)
        }
    }
}

struct RemindersList: Equatable, Sendable {
    var id: Int
    var name: String
}

extension RemindersList: PrimaryKeyedTable {
    struct TableColumns: PrimaryKeyedTableDefinition {
        typealias Root = RemindersList
        typealias PrimaryKey = Int
        let id = TableColumn<RemindersList, Int>("id")
        let name = TableColumn<RemindersList, String>("name")
        var primaryKey: TableColumn<RemindersList, Int> { id }
        static let allColumns: [ColumnSchema] = [.init("id", as: Int.self, primaryKey: true), .init("name", as: String.self)]
    }
    static let columns = TableColumns()
    static var tableName: String { "remindersList" }

    init(decoder: inout RowDecoder) throws(BoutiqueError) {
        id = try decoder.decode(Int.self)
        name = try decoder.decode(String.self)
    }

    func encodeColumns(into encoder: inout RowEncoder) {
        encoder.encode(id, as: Int.self)
        encoder.encode(name, as: String.self)
    }

    struct Draft: TableDraft {
        typealias Root = RemindersList
        var id: Int?
        var name: String
        func encodeColumns(into encoder: inout RowEncoder) {
            encoder.encode(id, as: Int?.self)
            encoder.encode(name, as: String.self)
        }
    }
}

/// A fresh in-memory database with two lists and five reminders.
func makeRemindersDatabase() throws -> Connection {
    let connection = try Connection(path: ":memory:")
    try connection.execute("""
        CREATE TABLE remindersList (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE reminder (
            id INTEGER PRIMARY KEY, title TEXT NOT NULL, isDone INTEGER NOT NULL DEFAULT 0,
            priority INTEGER, listID INTEGER NOT NULL REFERENCES remindersList(id)
        );
        INSERT INTO remindersList (id, name) VALUES (1, 'Home'), (2, 'Work'), (3, 'Empty');
        INSERT INTO reminder (id, title, isDone, priority, listID) VALUES
            (1, 'Groceries', 0, 2, 1),
            (2, 'Haircut', 1, NULL, 1),
            (3, 'Email boss', 0, 3, 2),
            (4, 'Plan offsite', 0, 1, 2),
            (5, 'Laundry', 1, 2, 1);
        """)
    return connection
}
