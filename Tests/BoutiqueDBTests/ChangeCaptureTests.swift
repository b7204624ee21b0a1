@testable import BoutiqueDB
import Foundation
import Testing

/// Every committed change is logged in `turso_cdc`, in its transaction, in Turso's v2 format.
@Suite struct ChangeCaptureTests {
    private func open(_ mode: ChangeCaptureMode = .full) async throws -> DatabaseActor {
        try await DatabaseActor.open(
            url: BoutiqueDB.inMemoryURL(), migrations: CaptureMigrations.plan,
            options: .init(changeCapture: .init(mode: mode)))
    }

    @Test func theLogTablesAreTursosOwn() async throws {
        let database = try await open()
        let rows = try await database.read { conn in
            try conn.fetchAll("SELECT name, sql FROM sqlite_schema WHERE name LIKE 'turso_cdc%' ORDER BY name")
        }
        #expect(rows.map { $0["sql"] } == [
            .text(#"CREATE TABLE turso_cdc (change_id INTEGER PRIMARY KEY AUTOINCREMENT, change_time INTEGER, change_txn_id INTEGER, change_type INTEGER, table_name TEXT, id, "before" BLOB, "after" BLOB, updates BLOB)"#),
            .text("CREATE TABLE turso_cdc_version (table_name TEXT PRIMARY KEY, version TEXT NOT NULL)"),
        ])
        let version = try await database.read { conn in try conn.fetchAll("SELECT table_name, version FROM turso_cdc_version") }
        #expect(version.map(\.values) == [[.text("turso_cdc"), .text("v2")]])
        await database.close()
    }

    @Test func insertsUpdatesAndDeletesAreLoggedWithTheirImages() async throws {
        let database = try await open()
        let start = try await database.lastChangeID()
        try await database.write { conn in
            try conn.execute("INSERT INTO item(id, name, price, data) VALUES (1, 'pen', 1.5, x'00ff')")
            try conn.execute("INSERT INTO item(id, name, price, data) VALUES (2, NULL, -2, NULL)")
        }
        try await database.write { conn in try conn.execute("UPDATE item SET name = 'ink', price = price WHERE id = 1") }
        try await database.write { conn in try conn.execute("DELETE FROM item WHERE id = 2") }
        let log = try await database.loggedChanges(after: start)
        #expect(log.count == 7, "\(log)")
        let first = start + 1
        #expect(log[0] == LoggedChange(
            id: first, transaction: first, type: 1, table: "item", rowID: 1, before: nil,
            after: [1, "pen", 1.5, .blob([0, 255])], updates: nil))
        #expect(log[1].after == [2, nil, -2.0, nil] || log[1].after == [2, nil, -2, nil])
        #expect(log[2] == LoggedChange(id: first + 2, transaction: first, type: 2, table: nil, rowID: nil))
        // The update flags both assigned columns, also `price`, which was set to its own value.
        #expect(log[3].type == 0 && log[3].transaction == first + 3)
        #expect(log[3].before == [1, "pen", 1.5, .blob([0, 255])])
        #expect(log[3].after == [1, "ink", 1.5, .blob([0, 255])])
        #expect(log[3].updates == [0, 1, 1, 0, nil, "ink", 1.5, nil])
        #expect(log[4].type == 2 && log[4].transaction == first + 3)
        #expect(log[5].type == -1 && log[5].rowID == 2 && log[5].after == nil && log[5].before?.first == 2)
        #expect(log[6].type == 2)
        await database.close()
    }

    @Test func recordsAreWhatTheRecordEncoderWrites() async throws {
        let database = try await open()
        try await database.write { conn in
            try conn.execute("CREATE TABLE v(id INTEGER PRIMARY KEY, r REAL, n NUMERIC, t TEXT, b BLOB, x, g AS (id * 2))")
        }
        // A later transaction: the table's layout is known, so rows are encoded as they are captured.
        let start = try await database.lastChangeID()
        let long = String(repeating: "é", count: 100)
        try await database.write { conn in
            try conn.execute("INSERT INTO v(id, r, n, t, b, x) VALUES (1, 2, 2.0, 'it''s 🎉', x'00', NULL)")
            try conn.execute("INSERT INTO v(id, r, n, t, b, x) VALUES (-9223372036854775808, 1e308, '12', ?, zeroblob(300), 9223372036854775807)", [.text(long)])
            try conn.execute("INSERT INTO v(id, r, n, t, b, x) VALUES (128, -0.0, NULL, '', x'', 0.5)")
            try conn.execute("DELETE FROM v WHERE id = 128")
        }
        let log = try await database.loggedRowChanges(after: start)
        let rows = try await database.read { conn in try conn.fetchAll("SELECT id, r, n, t, b, x FROM v ORDER BY id DESC") }
        let raw = try await database.read { conn in
            try conn.fetchAll("SELECT \"after\" FROM turso_cdc WHERE change_id > ? AND table_name = 'v' AND change_type = 1 ORDER BY change_id", [.integer(start)])
        }
        #expect(raw.count == 3 && rows.count == 2)
        for (index, row) in rows.enumerated() {
            #expect(raw[index][0] == .blob(RecordEncoder.encode(row.values)), "row \(index)")
        }
        #expect(log[0].after == [1, 2.0, 2, "it's 🎉", .blob([0]), nil])
        #expect(log[3].type == -1 && log[3].before == [128, -0.0, nil, "", .blob([]), 0.5])
        await database.close()
    }

    @Test func aRollbackLeavesNoTrace() async throws {
        let database = try await open()
        let start = try await database.lastChangeID()
        struct Refused: Error {}
        await #expect(throws: Refused.self) {
            try await database.write { conn in
                try conn.execute("INSERT INTO item(id, name) VALUES (10, 'kept?')")
                throw Refused()
            }
        }
        #expect(try await database.loggedChanges(after: start).isEmpty)
        await database.close()
    }

    @Test func changesSQLiteUndidAreNotLogged() async throws {
        let database = try await open()
        let start = try await database.lastChangeID()
        try await database.write { conn in
            try conn.execute("INSERT INTO tag(name, weight) VALUES ('a', 1)")
            // The second row breaks the key: SQLite undoes the statement's first row too.
            var failed = false
            do { try conn.execute("INSERT INTO tag(name, weight) VALUES ('b', 2), ('a', 3)") } catch { failed = true }
            #expect(failed)
            // A savepoint rolled back undoes what ran inside it.
            try conn.connection.execute("SAVEPOINT inner")
            try conn.execute("INSERT INTO tag(name, weight) VALUES ('c', 4)")
            try conn.connection.execute("ROLLBACK TO inner")
            try conn.connection.execute("RELEASE inner")
            try conn.connection.savepoint("kept") { try conn.execute("INSERT INTO tag(name, weight) VALUES ('d', 5)") }
        }
        let log = try await database.loggedRowChanges(after: start)
        #expect(log.map { $0.after?.first } == [.text("a"), .text("d")], "\(log)")
        let rows = try await database.read { conn in try conn.fetchAll("SELECT name FROM tag ORDER BY name") }
        #expect(rows.map { $0[0] } == ["a", "d"])
        await database.close()
    }

    @Test func aStatementRunAgainAfterFailingAndAHalfReadReturningAreFollowed() async throws {
        let database = try await open()
        let start = try await database.lastChangeID()
        try await database.write { conn in
            let sql = "INSERT INTO tag(name, weight) VALUES (?, ?), (?, ?)"
            var failed = false
            do { try conn.execute(sql, ["x", 1, "x", 2]) } catch { failed = true }
            #expect(failed)
            try conn.execute(sql, ["y", 1, "z", 2])
            // A RETURNING statement read only in part: its changes are made, and counted when it is reset.
            let returning = try conn.connection.prepare("INSERT INTO tag(name, weight) VALUES ('r1', 1), ('r2', 2) RETURNING name")
            #expect(try returning.step())
            try conn.execute("INSERT INTO tag(name, weight) VALUES ('after', 3)")
            try returning.reset()
            returning.finalize()
        }
        let log = try await database.loggedRowChanges(after: start)
        #expect(log.map { $0.after?.first } == [.text("y"), .text("z"), .text("r1"), .text("r2"), .text("after")], "\(log)")
        await database.close()
    }

    @Test func aNewRowIDIsADeleteThenAnInsert() async throws {
        let database = try await open()
        try await database.write { conn in try conn.execute("INSERT INTO item(id, name) VALUES (1, 'a')") }
        let start = try await database.lastChangeID()
        try await database.write { conn in try conn.execute("UPDATE item SET id = 5 WHERE id = 1") }
        let log = try await database.loggedChanges(after: start)
        #expect(log.map(\.type) == [-1, 1, 2])
        #expect(log[0].rowID == 1 && log[0].before == [1, "a", nil, nil] && log[0].after == nil)
        #expect(log[1].rowID == 5 && log[1].after == [5, "a", nil, nil] && log[1].before == nil)
        await database.close()
    }

    @Test func schemaChangesAreChangesOfSQLiteSchema() async throws {
        let database = try await open()
        let start = try await database.lastChangeID()
        try await database.write { conn in
            try conn.execute("CREATE TABLE note(id INTEGER PRIMARY KEY, title TEXT UNIQUE)")
            try conn.execute("INSERT INTO note(id, title) VALUES (1, 'x')")
        }
        let log = try await database.loggedChanges(after: start)
        // The automatic index of UNIQUE is left out, as Turso leaves it out.
        #expect(log.map(\.type) == [1, 1, 2], "\(log)")
        #expect(log[0].table == "sqlite_schema")
        #expect(log[0].after?[0] == "table" && log[0].after?[1] == "note" && log[0].after?[2] == "note")
        #expect(log[0].after?[4] == "CREATE TABLE note(id INTEGER PRIMARY KEY, title TEXT UNIQUE)")
        #expect(log[1].table == "note")

        let middle = try await database.lastChangeID()
        try await database.write { conn in try conn.execute("ALTER TABLE note ADD COLUMN body TEXT") }
        let altered = try await database.loggedChanges(after: middle)
        #expect(altered.map(\.type) == [0, 2])
        #expect(altered[0].updatedFlags == [0, 0, 0, 0, 1])
        // As in Turso's log: the new definition in `after`, the statement that made it in `updates`.
        #expect(altered[0].after?[4] == "CREATE TABLE note(id INTEGER PRIMARY KEY, title TEXT UNIQUE, body TEXT)")
        #expect(altered[0].updates?[9] == "ALTER TABLE note ADD COLUMN body TEXT")

        let later = try await database.lastChangeID()
        try await database.write { conn in try conn.execute("DROP TABLE note") }
        let dropped = try await database.loggedChanges(after: later)
        #expect(dropped.map(\.type) == [-1, 2])
        #expect(dropped[0].before?[1] == "note")
        await database.close()
    }

    @Test func migrationsAreLogged() async throws {
        let database = try await open()
        let log = try await database.loggedChanges()
        let created = log.filter { $0.table == "sqlite_schema" }.compactMap { $0.after?[1] }
        #expect(created.contains("item") && created.contains("tag") && created.contains("boutique_migrations"))
        #expect(!created.contains("turso_cdc"), "the log never logs itself")
        #expect(log.contains { $0.table == "boutique_migrations" && $0.type == 1 })
        #expect(!log.contains { $0.table?.hasPrefix("turso_cdc") == true || $0.table == "sqlite_sequence" })
        await database.close()
    }

    @Test func theModesKeepWhatTheySay() async throws {
        for mode in [ChangeCaptureMode.id, .before, .after] {
            let database = try await open(mode)
            let start = try await database.lastChangeID()
            try await database.write { conn in try conn.execute("INSERT INTO item(id, name) VALUES (1, 'a')") }
            try await database.write { conn in try conn.execute("UPDATE item SET name = 'b'") }
            try await database.write { conn in try conn.execute("DELETE FROM item") }
            let log = try await database.loggedRowChanges(after: start)
            #expect(log.map(\.type) == [1, 0, -1])
            #expect(log.allSatisfy { $0.updates == nil })
            switch mode {
            case .id: #expect(log.allSatisfy { $0.before == nil && $0.after == nil })
            case .before: #expect(log.map { $0.before != nil } == [false, true, true] && log.allSatisfy { $0.after == nil })
            default: #expect(log.map { $0.after != nil } == [true, true, false] && log.allSatisfy { $0.before == nil })
            }
            await database.close()
        }
        let off = try await open(.off)
        try await off.write { conn in try conn.execute("INSERT INTO item(id, name) VALUES (1, 'a')") }
        let tables = try await off.read { conn in try conn.fetchAll("SELECT name FROM sqlite_schema WHERE name LIKE 'turso%'") }
        #expect(tables.isEmpty)
        await off.close()
    }

    @Test func withoutRowIDTablesAreIdentifiedByTheirKey() async throws {
        let database = try await open()
        try await database.write { conn in
            try conn.execute("CREATE TABLE pair(a TEXT, b INTEGER, v, PRIMARY KEY(b, a)) WITHOUT ROWID")
            try conn.execute("CREATE TABLE word(w TEXT PRIMARY KEY, n) WITHOUT ROWID")
        }
        let start = try await database.lastChangeID()
        try await database.write { conn in
            try conn.execute("INSERT INTO word VALUES ('hi', 1)")
            try conn.execute("UPDATE word SET n = 2")
            try conn.execute("UPDATE word SET w = 'ho'")
            try conn.execute("INSERT INTO pair VALUES ('x', 7, NULL)")
        }
        let log = try await database.loggedRowChanges(after: start)
        #expect(log.map(\.type) == [1, 0, -1, 1, 1])
        #expect(log.map(\.rowID) == ["hi", "hi", "hi", "ho", .blob(RecordEncoder.encode([7, "x"]))])
        #expect(log[1].updatedFlags == [0, 1])
        await database.close()
    }

    @Test func virtualGeneratedColumnsAreLeftOut() async throws {
        let database = try await open()
        try await database.write { conn in
            try conn.execute("CREATE TABLE g(a, b AS (a * 2) VIRTUAL, c AS (a * 3) STORED, d)")
        }
        let start = try await database.lastChangeID()
        try await database.write { conn in
            try conn.execute("INSERT INTO g(a, d) VALUES (1, 4)")
            try conn.execute("UPDATE g SET d = 5")
        }
        let log = try await database.loggedRowChanges(after: start)
        #expect(log[0].after == [1, 3, 4])
        #expect(log[1].after == [1, 3, 5] && log[1].updatedFlags == [0, 0, 1])
        await database.close()
    }

    @Test func rowsOfATableCreatedFromASelectAreLogged() async throws {
        let database = try await open()
        try await database.write { conn in try conn.execute("INSERT INTO item(id, name) VALUES (1, 'a'), (2, 'b')") }
        let start = try await database.lastChangeID()
        try await database.write { conn in try conn.execute("CREATE TABLE copy AS SELECT id, name FROM item") }
        let log = try await database.loggedChanges(after: start)
        #expect(log.map(\.table) == ["sqlite_schema", "copy", "copy", nil])
        #expect(log[1].after == [1, "a"] && log[2].after == [2, "b"])
        await database.close()
    }

    @Test func writesOutsideATransactionAreLoggedAfterwards() async throws {
        let database = try await open()
        let start = try await database.lastChangeID()
        try await database.writeWithoutTransaction { conn in
            try conn.execute("INSERT INTO item(id, name) VALUES (1, 'a')")
            try conn.execute("INSERT INTO item(id, name) VALUES (2, 'b')")
        }
        let log = try await database.loggedChanges(after: start)
        #expect(log.map(\.type) == [1, 2, 1, 2], "one logged transaction per autocommit statement: \(log)")
        await database.close()
    }

    @Test func theQueryBuildersSavepointsAreFollowed() async throws {
        let database = try await open()
        let start = try await database.lastChangeID()
        try await database.write { conn in
            try Item.insert {
                Item(id: 1, name: "a", price: 1, data: nil)
                Item(id: 2, name: "b", price: 2, data: [1])
            }.execute(conn.connection)
            var failed = false
            do {
                try Item.insert {
                    Item(id: 3, name: "c", price: nil, data: nil)
                    Item(id: 1, name: "dup", price: nil, data: nil)
                }.execute(conn.connection)
            } catch {
                failed = true
            }
            #expect(failed)
            try Item.update { $0.name = Optional("z") }.where { $0.id == 2 }.execute(conn.connection)
        }
        let log = try await database.loggedRowChanges(after: start)
        #expect(log.map(\.type) == [1, 1, 0], "\(log)")
        #expect(log[2].updatedFlags == [0, 1, 0, 0])
        await database.close()
    }
}

/// The `item` table, written out in the shape `@Table` generates.
@Table
struct Item: Equatable, Sendable {
    @Column(primaryKey: true) var id: Int
    var name: String?
    var price: Double?
    var data: [UInt8]?
}
