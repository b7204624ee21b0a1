@testable import BoutiqueDB
import Foundation
import Testing

/// A transaction's log rows take the ids after the last row of the log, whoever wrote it: the writer
/// reuses what its last commit left only while nothing else has changed the file or the log.
@Suite struct ChangeLogNumberingTests {
    /// The log's rows in order: each transaction's rows are numbered one after another from its
    /// `change_txn_id` to its COMMIT row.
    private func expectConsecutiveTransactions(_ log: [LoggedChange], sourceLocation: SourceLocation = #_sourceLocation) {
        var expectedTransaction: Int64?
        var previous: Int64?
        for row in log {
            if let previous { #expect(row.id > previous, "\(log)", sourceLocation: sourceLocation) }
            previous = row.id
            let transaction = expectedTransaction ?? row.id
            #expect(row.transaction == transaction, "\(row)", sourceLocation: sourceLocation)
            expectedTransaction = row.type == 2 ? nil : transaction
        }
    }

    @Test func anotherConnectionsLogRowsBetweenTwoWritesAreNumberedAround() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("shared.db")
        let database = try await DatabaseActor.open(url: url, migrations: CaptureMigrations.plan)
        try await database.write { conn in try conn.execute("INSERT INTO item(id, name) VALUES (1, 'a')") }
        let before = try await database.lastChangeID()

        // Another writer of the file (Turso, another process) appends a transaction of its own.
        let other = try Connection(path: url.path)
        try other.beginTransaction(.immediate)
        try other.execute("INSERT INTO item(id, name) VALUES (2, 'b')")
        try other.execute(
            "INSERT INTO turso_cdc(change_time, change_txn_id, change_type, table_name, id) VALUES (0, ?, 1, 'item', 2)",
            [.integer(before + 1)])
        try other.execute("INSERT INTO turso_cdc(change_time, change_txn_id, change_type) VALUES (0, ?, 2)", [.integer(before + 1)])
        try other.commit()
        other.close()

        try await database.write { conn in try conn.execute("INSERT INTO item(id, name) VALUES (3, 'c')") }
        let log = try await database.loggedChanges(after: before)
        #expect(log.map(\.id) == [before + 1, before + 2, before + 3, before + 4])
        #expect(log[2].transaction == before + 3 && log[2].rowID == 3)
        expectConsecutiveTransactions(log)
        await database.close()
    }

    @Test func rowsTheAppWritesIntoTheLogItselfMoveTheNextIdOn() async throws {
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: CaptureMigrations.plan)
        try await database.write { conn in try conn.execute("INSERT INTO item(id, name) VALUES (1, 'a')") }
        let before = try await database.lastChangeID()
        try await database.write { conn in
            try conn.execute("INSERT INTO turso_cdc(change_time, change_txn_id, change_type) VALUES (0, ?, 2)", [.integer(before + 1)])
        }
        try await database.write { conn in try conn.execute("INSERT INTO item(id, name) VALUES (2, 'b')") }
        let log = try await database.loggedChanges(after: before)
        #expect(log.map(\.id) == [before + 1, before + 2, before + 3])
        #expect(log[1].rowID == 2 && log[1].transaction == before + 2)
        await database.close()
    }

    @Test func raisingTheLogsCounterMovesTheNextIdOn() async throws {
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: CaptureMigrations.plan)
        try await database.write { conn in try conn.execute("INSERT INTO item(id, name) VALUES (1, 'a')") }
        let before = try await database.lastChangeID()
        try await database.write { conn in
            try conn.execute("UPDATE sqlite_sequence SET seq = seq + 100 WHERE name = 'turso_cdc'")
        }
        try await database.write { conn in try conn.execute("INSERT INTO item(id, name) VALUES (2, 'b')") }
        let log = try await database.loggedChanges(after: before)
        #expect(log.map(\.id) == [before + 101, before + 102])
        expectConsecutiveTransactions(log)
        await database.close()
    }

    /// A table of the app's own with `AUTOINCREMENT` also writes `sqlite_sequence`, on every insert:
    /// its rows are not the log's counter, and its transactions log as any other.
    @Test func anAppTableWithAutoincrementLogsAsAnyOther() async throws {
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: CaptureMigrations.plan)
        try await database.write { conn in try conn.execute("CREATE TABLE event(id INTEGER PRIMARY KEY AUTOINCREMENT, label TEXT)") }
        let before = try await database.lastChangeID()
        for label in ["a", "b", "c"] {
            try await database.write { conn in try conn.execute("INSERT INTO event(label) VALUES (?)", [.text(label)]) }
        }
        let log = try await database.loggedChanges(after: before)
        #expect(log.map(\.id) == Array(before + 1...before + 6))
        #expect(log.filter { $0.type == 1 }.map(\.table) == ["event", "event", "event"])
        expectConsecutiveTransactions(log)
        await database.close()
    }

    /// What the writer keeps from each commit is what the file says, whatever the transaction ran: a
    /// later transaction trusts it without reading the file again.
    @Test func whatACommitLeavesIsTheFilesOwnState() async throws {
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: CaptureMigrations.plan)
        let writes = [
            "INSERT INTO item(id, name) VALUES (1, 'a')",
            "CREATE TABLE later(id INTEGER PRIMARY KEY, label TEXT)",
            "INSERT INTO later(label) VALUES ('x')",
            "ALTER TABLE later ADD COLUMN extra INTEGER",
            "PRAGMA user_version = 3",
            "SAVEPOINT s; CREATE TABLE undone(x); ROLLBACK TO s; RELEASE s",
            "ANALYZE",
            "DROP TABLE later",
            "UPDATE item SET name = 'b'",
        ]
        for sql in writes {
            try await database.write { conn in try conn.execute(sql) }
            let kept = await database.committedFileState()
            let schemaVersion = try await database.read { conn in try conn.fetchValue("PRAGMA schema_version") }
            #expect(kept.map { .integer($0.schemaVersion) } == schemaVersion, "after \(sql)")
            let last = try await database.lastChangeID()
            if let next = kept?.nextChangeID { #expect(next == last + 1, "after \(sql)") }
        }
        await database.close()
    }
}

extension DatabaseActor {
    /// What change capture kept from the last commit (the tests' window on it).
    fileprivate func committedFileState() -> (schemaVersion: Int64, nextChangeID: Int64?)? {
        guard let state = observers.capture?.committedState else { return nil }
        return (state.schemaVersion, state.nextChangeID)
    }
}
