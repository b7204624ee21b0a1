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

/// The same transactions run in the Turso engine and in BoutiqueDB log the same row changes, record for
/// record: foreign-key actions, `INSERT OR REPLACE` (and the rows it deletes), triggers.
@Suite struct TursoDifferentialTests {
    static let schema = [
        "CREATE TABLE list(id INTEGER PRIMARY KEY, name TEXT)",
        "CREATE TABLE reminder(id INTEGER PRIMARY KEY, list_id INTEGER REFERENCES list(id) ON DELETE CASCADE, title TEXT)",
        "CREATE TABLE note(id INTEGER PRIMARY KEY, list_id INTEGER REFERENCES list(id) ON DELETE SET NULL, body TEXT)",
        "CREATE TABLE item(id INTEGER PRIMARY KEY, code TEXT UNIQUE, qty INTEGER)",
        "CREATE TABLE audit(id INTEGER PRIMARY KEY, what TEXT)",
        "CREATE TRIGGER reminder_added AFTER INSERT ON reminder BEGIN INSERT INTO audit(what) VALUES ('added ' || NEW.id); END",
    ]
    static let transactions: [[String]] = [
        ["INSERT INTO list VALUES (1, 'a'), (2, 'b')", "INSERT INTO note VALUES (1, 1, 'x'), (2, 2, 'y')"],
        ["INSERT INTO reminder VALUES (10, 1, 'r10'), (11, 1, 'r11'), (12, 2, 'r12')"],
        ["DELETE FROM list WHERE id = 1"],
        ["INSERT INTO item VALUES (1, 'p', 5), (2, 'q', 6)"],
        ["INSERT OR REPLACE INTO item VALUES (3, 'p', 7)", "INSERT OR REPLACE INTO item VALUES (2, 'r', 8)"],
        ["INSERT OR REPLACE INTO list VALUES (2, 'b again')"],
    ]

    struct Row: Equatable, Hashable, CustomStringConvertible {
        var type: Int64
        var table: String
        var id: String
        var before: String?
        var after: String?
        var description: String { "\(type) \(table) \(id) before \(before ?? "-") after \(after ?? "-")" }
    }

    @Test func foreignKeyActionsReplaceAndTriggersAreLoggedAsTursoLogsThem() async throws {
        guard await TursoOracle.isAvailable(for: "foreignKeyActionsReplaceAndTriggersAreLoggedAsTursoLogsThem") else { return }
        let directory = try TemporaryDirectory()
        let script = directory.file("transactions.json")
        try JSONSerialization.data(withJSONObject: [Self.schema] + Self.transactions).write(to: script)
        let outcome = try await TursoOracle.run("turso-differential.py", [script.path])
        #expect(outcome.status == 0, "\(outcome.output)")
        guard outcome.status == 0,
            let object = try JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [String: Any],
            let logged = object["transactions"] as? [[[String: Any]]]
        else { return }
        let turso = logged.dropFirst().map { rows in
            rows.map { row in
                let id = row["id"] as? [String: String] ?? [:]
                return Row(
                    type: (row["type"] as? NSNumber)?.int64Value ?? -99, table: row["table"] as? String ?? "",
                    id: "\(id["type"] ?? "") \(id["value"] ?? "")", before: row["before"] as? String, after: row["after"] as? String)
            }
        }

        let database = try await DatabaseActor.open(url: directory.file("boutique.db"), migrations: BoutiqueMigrationPlan {
            BoutiqueMigration("schema") { conn in for statement in Self.schema { try conn.execute(statement) } }
        })
        var boutique: [[Row]] = []
        for statements in Self.transactions {
            let start = try await database.lastChangeID()
            try await database.write { conn in for statement in statements { try conn.execute(statement) } }
            boutique.append(try await database.loggedRowChanges(after: start).map { change in
                Row(
                    type: change.type, table: change.table ?? "", id: Self.typed(change.rowID),
                    before: change.before.map { RecordEncoder.encode($0).hex }, after: change.after.map { RecordEncoder.encode($0).hex })
            })
        }
        await database.close()

        #expect(boutique.count == turso.count)
        for (index, (ours, theirs)) in zip(boutique, turso).enumerated() {
            // Turso logs a trigger's changes before the change that fired it; the rows are the same.
            #expect(Set(ours) == Set(theirs), "transaction \(index): BoutiqueDB \(ours), Turso \(theirs)")
            #expect(ours.count == theirs.count, "transaction \(index): BoutiqueDB \(ours), Turso \(theirs)")
        }
    }

    static func typed(_ value: DatabaseValue) -> String {
        switch value {
        case .integer(let integer): "integer \(integer)"
        case .text(let text): "text \(text)"
        case .null: "null "
        case .real(let real): "real \(real)"
        case .blob(let bytes): "blob \(bytes.hex)"
        }
    }
}

extension [UInt8] {
    fileprivate var hex: String { map { String(format: "%02x", $0) }.joined() }
}
