@testable import BoutiqueDB
import Foundation
import Testing

/// Changes SQLite makes out of sight of a statement's own rows — foreign-key actions, triggers, a
/// statement that fails after its triggers ran, schema statements — each logged as it happened.
@Suite struct ChangeCaptureHiddenChangeTests {
    static let plan = BoutiqueMigrationPlan {
        BoutiqueMigration("v1") { conn in
            try conn.execute("""
                CREATE TABLE list(id INTEGER PRIMARY KEY, name TEXT);
                CREATE TABLE reminder(id INTEGER PRIMARY KEY, list_id INTEGER NOT NULL REFERENCES list(id) ON DELETE CASCADE);
                CREATE TABLE reminder_tag(reminder_id INTEGER REFERENCES reminder(id) ON DELETE CASCADE, tag TEXT,
                                          PRIMARY KEY (reminder_id, tag)) WITHOUT ROWID;
                CREATE VIEW open_reminder AS SELECT id, list_id FROM reminder;
                CREATE TRIGGER open_reminder_insert INSTEAD OF INSERT ON open_reminder
                BEGIN INSERT INTO reminder(list_id) VALUES (NEW.list_id); END;
                INSERT INTO list VALUES (1, 'a'), (2, 'b');
                INSERT INTO reminder VALUES (10, 1), (11, 1), (12, 2);
                INSERT INTO reminder_tag VALUES (10, 'x'), (11, 'y'), (12, 'z');
                """)
        }
    }

    private func open() async throws -> DatabaseActor {
        try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: Self.plan)
    }

    @Test func aCascadingDeleteLogsTheParentAndEveryLevelBelowIt() async throws {
        let database = try await open()
        let start = try await database.lastChangeID()
        try await database.write { conn in try conn.execute("DELETE FROM list WHERE id = 1") }
        let log = try await database.loggedChanges(after: start)
        // SQLite deletes the parent first, then runs the action's program, which it traces as the
        // statement again: the parent's delete is kept all the same.
        #expect(log.map { "\($0.type) \($0.table ?? "")" } == [
            "-1 list", "-1 reminder", "-1 reminder_tag", "-1 reminder", "-1 reminder_tag", "2 ",
        ], "\(log)")
        #expect([log[0], log[1], log[3]].map(\.rowID) == [.integer(1), .integer(10), .integer(11)])
        #expect(log[2].before == [.integer(10), .text("x")] && log[4].before == [.integer(11), .text("y")])
        await database.close()
    }

    @Test func aStatementThatFailsAfterItsTriggerWroteLeavesNothingInTheLog() async throws {
        let database = try await open()
        let start = try await database.lastChangeID()
        try await database.write { conn in
            // The trigger's insert finishes (SQLite counts it) before the foreign key fails the statement.
            #expect(throws: BoutiqueError.self) { try conn.execute("INSERT INTO open_reminder(list_id) VALUES (99)") }
            try conn.execute("INSERT INTO open_reminder(list_id) VALUES (2)")
        }
        let log = try await database.loggedChanges(after: start)
        #expect(log.map { "\($0.type) \($0.table ?? "")" } == ["1 reminder", "2 "], "\(log)")
        let reminders = try await database.read { conn in try conn.fetchAll("SELECT list_id FROM reminder ORDER BY id") }
        #expect(reminders.map { $0[0] } == [.integer(1), .integer(1), .integer(2), .integer(2)])
        await database.close()
    }

    @Test func eachSchemaStatementIsLoggedWhereItRan() async throws {
        let database = try await open()
        let start = try await database.lastChangeID()
        try await database.write { conn in
            try conn.execute("INSERT INTO list VALUES (3, 'c')")
            try conn.execute("ALTER TABLE list ADD COLUMN color TEXT")
            try conn.execute("INSERT INTO list VALUES (4, 'd', 'red')")
            try conn.execute("ALTER TABLE list RENAME TO folder")
        }
        let log = try await database.loggedChanges(after: start)
        #expect(log.map { "\($0.type) \($0.table ?? "")" } == [
            "1 list", "0 sqlite_schema", "1 list", "0 sqlite_schema", "0 sqlite_schema", "2 ",
        ], "\(log)")
        // Each row keeps the layout it was written with.
        #expect(log[0].after == [.integer(3), .text("c")])
        #expect(log[2].after == [.integer(4), .text("d"), .text("red")])
        #expect(log[1].updates?.last == .text("ALTER TABLE list ADD COLUMN color TEXT"))
        // A renamed table is an update of its schema row, not a drop and a create; the table that names
        // it in a foreign key is rewritten by the same statement.
        #expect(log[3].before?[1] == .text("list") && log[3].after?[1] == .text("folder"))
        #expect(log[3].updates?.last == .text("ALTER TABLE list RENAME TO folder"))
        #expect(log[4].after?[1] == .text("reminder"))
        await database.close()
    }

    @Test func aSchemaStatementOutsideATransactionCarriesItsStatementToo() async throws {
        let database = try await open()
        let start = try await database.lastChangeID()
        try await database.writeWithoutTransaction { conn in try conn.execute("ALTER TABLE list DROP COLUMN name") }
        let log = try await database.loggedChanges(after: start)
        #expect(log.map(\.type) == [0, 2], "\(log)")
        #expect(log[0].updates?.last == .text("ALTER TABLE list DROP COLUMN name"))
        await database.close()
    }
}

extension ChangeCaptureHiddenChangeTests {
    @Test func aCascadeAfterAVacuumIntoStillLogsItsParent() async throws {
        let folder = try TemporaryDirectory()
        let database = try await DatabaseActor.open(url: folder.file("vacuum.db"), migrations: Self.plan)
        try await database.write { conn in try conn.execute("DELETE FROM list WHERE id = ?", [.integer(2)]) }
        let backup = folder.file("backup.db").path
        try await database.writeWithoutTransaction { conn in try conn.execute("VACUUM INTO ?", [.text(backup)]) }
        let start = try await database.lastChangeID()
        try await database.write { conn in try conn.execute("DELETE FROM list WHERE id = ?", [.integer(1)]) }
        let log = try await database.loggedChanges(after: start)
        #expect(log.map { "\($0.type) \($0.table ?? "")" } == [
            "-1 list", "-1 reminder", "-1 reminder_tag", "-1 reminder", "-1 reminder_tag", "2 ",
        ], "\(log)")
        await database.close()
    }
}
