import BoutiqueQueries
import BoutiqueSQLite
import Foundation
import Testing

@Suite("Injection and decoding errors")
struct SafetyTests {
    let db: Connection
    init() throws { db = try makeRemindersDatabase() }

    static let hostile = [
        "it's", "\"quoted\"", "--", "; DROP TABLE reminder; --", "') OR 1=1 --", "a\u{0}b", "🙂👩‍👩‍👧", "\\", "%_*?[",
        "Robert'); DROP TABLE remindersList;--",
    ]

    @Test(arguments: hostile)
    func hostileValuesAreStoredVerbatimAndNeverChangeTheStatement(_ value: String) throws {
        let insert = Reminder.insert { Reminder(id: 100, title: value, listID: 1) }
        #expect(!insert.sql.contains(value))
        try insert.execute(db)
        let filtered = Reminder.where { $0.title == value }
        #expect(filtered.sql.hasSuffix(#"WHERE ("reminder"."title" = ?)"#))
        #expect(try filtered.fetchAll(db).map(\.id) == [100])
        #expect(try Reminder.where { $0.title.contains(value) }.fetchAll(db).map(\.id) == [100])
        #expect(try Reminder.where { $0.title.hasPrefix(value) }.fetchAll(db).map(\.id) == [100])
        try Reminder.update { $0.title = value + value }.where { $0.id == 100 }.execute(db)
        #expect(try Reminder.find(100).select { $0.title }.fetchOne(db) == value + value)
        #expect(try Reminder.count().fetchOne(db) == 6)
        #expect(try RemindersList.count().fetchOne(db) == 3)
    }

    @Test func nullInANonOptionalColumnNamesTableColumnAndType() throws {
        try db.execute("CREATE TABLE loose (id INTEGER PRIMARY KEY, title TEXT, isDone INTEGER, priority INTEGER, listID INTEGER)")
        try db.execute("INSERT INTO loose VALUES (1, NULL, 0, NULL, 1)")
        let statement = try db.prepare("SELECT * FROM loose")
        #expect(try statement.step())
        var decoder = RowDecoder(statement: statement, source: "reminder")
        #expect(throws: BoutiqueError.decoding(.init(table: "reminder", column: "title", expectedType: "String", found: "NULL"))) {
            try Reminder(decoder: &decoder)
        }
    }

    @Test func wrongTypeIsADecodingError() throws {
        try db.execute("UPDATE reminder SET listID = 'not a number' WHERE id = 1")
        let error = #expect(throws: BoutiqueError.self) { try Reminder.all.fetchAll(db) }
        #expect(error == .decoding(.init(table: "reminder", column: "listID", expectedType: "Int", found: "TEXT 'not a number'")))
        // Text that is a number converts, as SQLite's own rules say.
        try db.execute("UPDATE reminder SET listID = '2' WHERE id = 1")
        #expect(try Reminder.find(1).fetchOne(db)?.listID == 2)
    }

    @Test func sqlErrorsCarryCodeMessageAndSQL() throws {
        let error = #expect(throws: BoutiqueError.self) {
            try Reminder.insert { Reminder(id: 1, title: "dup", listID: 1) }.execute(db)
        }
        #expect(error?.resultCode == .constraintPrimaryKey)
        #expect(error?.resultCode?.primary == .constraint)
        if case .sql(_, let message)? = error {
            #expect(message.text.contains("UNIQUE constraint failed: reminder.id"))
            #expect(message.sql?.hasPrefix(#"INSERT INTO "reminder""#) == true)
        } else {
            Issue.record("expected an SQL error, got \(String(describing: error))")
        }
    }

    @Test func closedConnectionIsDatabaseClosed() throws {
        db.close()
        #expect(throws: BoutiqueError.databaseClosed) { try Reminder.all.fetchAll(db) }
    }
}
