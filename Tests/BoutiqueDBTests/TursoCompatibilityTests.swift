@testable import BoutiqueDB
import Foundation
import Testing

/// The change log BoutiqueDB writes is the one Turso writes: checked with the Turso engine itself
/// (`pyturso`), both ways.
@Suite struct TursoCompatibilityTests {
    /// A change the workload makes, with the values its records must decode to.
    struct Expected {
        var type: Int64
        var table: String?
        var id: DatabaseValue
        var before: [DatabaseValue]?
        var after: [DatabaseValue]?
        var flags: [Bool]?

        static let commit = Expected(type: 2, table: nil, id: nil)
        static func insert(_ table: String, _ id: Int64, _ after: [DatabaseValue]) -> Expected {
            Expected(type: 1, table: table, id: .integer(id), after: after)
        }
        static func update(_ table: String, _ id: Int64, _ before: [DatabaseValue], _ after: [DatabaseValue], _ flags: [Bool]) -> Expected {
            Expected(type: 0, table: table, id: .integer(id), before: before, after: after, flags: flags)
        }
        static func delete(_ table: String, _ id: Int64, _ before: [DatabaseValue]) -> Expected {
            Expected(type: -1, table: table, id: .integer(id), before: before)
        }
    }

    @Test func tursoReadsWhatBoutiqueDBWrites() async throws {
        guard await TursoOracle.isAvailable(for: "tursoReadsWhatBoutiqueDBWrites") else { return }
        let directory = try TemporaryDirectory()
        let url = directory.file("boutique.db")
        let database = try await DatabaseActor.open(url: url, migrations: TursoWorkload.plan)
        let start = try await database.lastChangeID()

        let quoted: DatabaseValue = "it's \"quoted\" 🎉"
        let first: [DatabaseValue] = [1, 42, 3.25, quoted, .blob([0, 255, 127]), nil]
        let second: [DatabaseValue] = [2, .integer(.min), -0.5, "", .blob([]), .integer(.max)]
        try await database.write { conn in
            try conn.execute("INSERT INTO t VALUES (1, 42, 3.25, 'it''s \"quoted\" 🎉', x'00ff7f', NULL)")
            try conn.execute("INSERT INTO t VALUES (2, -9223372036854775808, -0.5, '', x'', 9223372036854775807)")
            try conn.execute("INSERT INTO k VALUES ('alpha', 1, 'one'), ('béta', 2.5, NULL), ('🎉', NULL, x'01')")
        }
        let changed: [DatabaseValue] = [1, 42, 3.25, "changed", .blob([0, 255, 127]), nil]
        try await database.write { conn in
            try conn.execute("UPDATE t SET s = 'changed', r = r WHERE id = 1")
            try conn.execute("UPDATE k SET w = 'uno' WHERE name = 'alpha'")
        }
        try await database.write { conn in
            try conn.execute("DELETE FROM t WHERE id = 2")
            try conn.execute("DELETE FROM k WHERE name = '🎉'")
        }
        try await database.write { conn in
            try TursoRow.insert { TursoRow(id: 3, i: 128, r: 2, s: "auto", b: nil, n: -1) }.execute(conn.connection)
            try TursoRow.update { $0.i = Optional(1); $0.n = Optional(0) }.where { $0.id == 1 }.execute(conn.connection)
        }
        try await database.write { conn in
            try conn.execute("CREATE TABLE e(x INTEGER PRIMARY KEY, y)")
            try conn.execute("INSERT INTO e VALUES (1, 'x')")
        }
        let schemaRow = try await database.read { conn in
            try conn.fetchOne("SELECT rowid, type, name, tbl_name, rootpage, sql FROM sqlite_schema WHERE name = 'e'")
        }
        let schemaID: Int64 = if case .integer(let id)? = schemaRow?[0] { id } else { -1 }

        let expected: [Expected] = [
            .insert("t", 1, first), .insert("t", 2, second),
            .insert("k", 1, ["alpha", 1, "one"]), .insert("k", 2, ["béta", 2.5, nil]), .insert("k", 3, ["🎉", nil, .blob([1])]),
            .commit,
            .update("t", 1, first, changed, [false, false, true, true, false, false]),
            .update("k", 1, ["alpha", 1, "one"], ["alpha", 1, "uno"], [false, false, true]),
            .commit,
            .delete("t", 2, second), .delete("k", 3, ["🎉", nil, .blob([1])]),
            .commit,
            .insert("t", 3, [3, 128, 2.0, "auto", nil, -1]),
            .update("t", 1, changed, [1, 1, 3.25, "changed", .blob([0, 255, 127]), 0], [false, true, false, false, false, true]),
            .commit,
            .insert("sqlite_schema", schemaID, Array(schemaRow?.values.dropFirst() ?? [])),
            .insert("e", 1, [1, "x"]),
            .commit,
        ]
        await database.close()

        let expectations = directory.file("expected.json")
        try TursoWorkload.expectations(expected, after: start).write(to: expectations)
        let outcome = try await TursoOracle.run("check-turso-cdc.py", [url.path, expectations.path])
        #expect(outcome.status == 0, "\(outcome.output)")
        #expect(outcome.output == "ok \(expected.count) rows", "\(outcome.output)")
    }

    @Test func boutiqueDBReadsWhatTursoWrites() async throws {
        guard await TursoOracle.isAvailable(for: "boutiqueDBReadsWhatTursoWrites") else { return }
        let directory = try TemporaryDirectory()
        let url = directory.file("turso.db")
        let written = try await TursoOracle.run("write-turso-cdc.py", [url.path])
        try #require(written.status == 0, "\(written.output)")

        let database = try await DatabaseActor.open(url: url)
        let transactions = try await withTimeout(10) {
            var collected: [ChangeTransaction] = []
            for try await transaction in database.changes(since: .beginning) {
                collected.append(transaction)
                if collected.count == 6 { break }
            }
            return collected
        }
        let changes = transactions.map { $0.changes.map { "\($0.kind) \($0.table) \($0.id)" } }
        #expect(changes == [
            ["insert sqlite_schema \(changes.first?.first?.split(separator: " ").last ?? "?")"],
            [changes.count > 1 ? changes[1].first ?? "" : ""],
            ["insert t 1"], ["insert t 2"],
            ["insert k 1", "insert k 2", "update t 1"],
            ["delete t 2"],
        ])
        #expect(transactions.map(\.transactionID) == transactions.map { $0.token.changeID - Int64($0.changes.count) })
        let first: [DatabaseValue] = [1, 42, 3.25, "it's \"quoted\" 🎉", .blob([0, 255])]
        #expect(transactions[2].changes[0].after == first)
        #expect(transactions[2].changes[0].columns == ["id", "i", "r", "s", "b"])
        #expect(try transactions[2].changes[0].after(as: TursoWritten.self)
            == TursoWritten(id: 1, i: 42, r: 3.25, s: "it's \"quoted\" 🎉", b: [0, 255]))
        #expect(transactions[3].changes[0].after == [2, .integer(.min), -0.5, nil, nil])
        #expect(transactions[4].changes[0].after == ["alpha", 1])
        #expect(transactions[4].changes[1].after == ["béta", 2.5])
        let update = transactions[4].changes[2]
        #expect(update.before == first)
        #expect(update.after == [1, 42, 3.25, "changed", .blob([0, 255])])
        #expect(update.assignedColumnNames == ["s"])
        #expect(transactions[5].changes[0].before == [2, .integer(.min), -0.5, nil, nil])
        #expect(try await database.currentToken() == transactions[5].token)

        // BoutiqueDB carries on the file's log where Turso left it.
        try await database.write { conn in try conn.execute("INSERT INTO t(id, i) VALUES (9, 9)") }
        let next = try await database.loggedChanges(after: transactions[5].token.changeID)
        #expect(next.map(\.id) == [transactions[5].token.changeID + 1, transactions[5].token.changeID + 2])
        await database.close()
    }
}

/// The `t` table of the workload, through the query builder.
@Table("t")
struct TursoRow: Sendable {
    @Column(primaryKey: true) var id: Int
    var i: Int?
    var r: Double?
    var s: String?
    var b: [UInt8]?
    var n: Int?
}

/// The `t` table of the file Turso writes.
@Table("t")
struct TursoWritten: Equatable, Sendable {
    @Column(primaryKey: true) var id: Int
    var i: Int?
    var r: Double?
    var s: String?
    var b: [UInt8]?
}

/// The schema of the workload, and the expectations file the checker reads.
enum TursoWorkload {
    static let plan = BoutiqueMigrationPlan {
        BoutiqueMigration("v1_tables") { conn in
            try conn.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, i INTEGER, r REAL, s TEXT, b BLOB, n)")
            try conn.execute("CREATE TABLE k(name TEXT PRIMARY KEY, v, w)")
        }
    }

    /// The JSON `check-turso-cdc.py` reads: every row after `start`, with ids assigned in order.
    static func expectations(_ expected: [TursoCompatibilityTests.Expected], after start: Int64) throws -> Data {
        var rows: [[String: Any]] = []
        var id = start
        var transaction: Int64?
        for change in expected {
            id += 1
            let transactionID = transaction ?? id
            transaction = change.type == 2 ? nil : transactionID
            var updates: Any = NSNull()
            if let flags = change.flags, let after = change.after {
                let values = flags.map { DatabaseValue.integer($0 ? 1 : 0) } + zip(flags, after).map { $0 ? $1 : .null }
                updates = values.map(typed)
            }
            rows.append([
                "change_id": id, "change_txn_id": transactionID, "change_type": change.type,
                "table_name": change.table.map { $0 as Any } ?? NSNull(), "id": typed(change.id),
                "before": change.before.map { $0.map(typed) as Any } ?? NSNull(),
                "after": change.after.map { $0.map(typed) as Any } ?? NSNull(),
                "updates": updates,
            ])
        }
        return try JSONSerialization.data(withJSONObject: ["after_change_id": start, "rows": rows], options: [.sortedKeys])
    }

    /// A value in the checker's typed JSON form.
    static func typed(_ value: DatabaseValue) -> [String: String] {
        switch value {
        case .null: ["type": "null"]
        case .integer(let integer): ["type": "integer", "value": String(integer)]
        case .real(let real): ["type": "real", "bits": String(format: "%016llx", real.bitPattern)]
        case .text(let text): ["type": "text", "value": text]
        case .blob(let bytes): ["type": "blob", "value": bytes.map { String(format: "%02x", $0) }.joined()]
        }
    }
}
