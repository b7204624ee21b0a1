import BoutiqueDB
import BoutiqueTestSupport

/// Random transactions over a schema built to hide changes from a change log: foreign-key actions
/// several levels deep, triggers (BEFORE, AFTER, INSTEAD OF, writing other tables, recursive), the
/// connection's own temporary triggers and a temporary view written through INSTEAD OF triggers, made
/// with the query builder (``createTemporaryObjects(on:)``), conflict clauses, rowid and key changes,
/// generated columns, AUTOINCREMENT, RETURNING, savepoints, failing statements and schema changes.
///
/// ```swift
/// var workload = ReplayWorkload(seed: 7)
/// let steps = workload.transaction()       // run them in one `write`
/// ```
public struct ReplayWorkload {
    /// One thing a transaction does.
    public enum Step: Sendable {
        /// A statement; a failure is expected now and then, and the transaction goes on.
        case statement(String, [DatabaseValue])
        /// A `RETURNING` statement of which only the first row is read before it is reset.
        case partlyRead(String, [DatabaseValue])
        /// The closure throws here: the whole transaction rolls back.
        case fail
    }

    /// The schema the workload starts from (a migration).
    public static let schema = [
        "CREATE TABLE list(id INTEGER PRIMARY KEY, name TEXT NOT NULL, position REAL DEFAULT 0)",
        """
        CREATE TABLE reminder(id INTEGER PRIMARY KEY AUTOINCREMENT,
            list_id INTEGER NOT NULL REFERENCES list(id) ON DELETE CASCADE ON UPDATE CASCADE,
            title TEXT, done INTEGER NOT NULL DEFAULT 0, priority,
            title_kind TEXT GENERATED ALWAYS AS (typeof(title)) VIRTUAL,
            title_length INTEGER GENERATED ALWAYS AS (length(title)) STORED)
        """,
        "CREATE TABLE tag(name TEXT PRIMARY KEY, color TEXT) WITHOUT ROWID",
        """
        CREATE TABLE reminder_tag(reminder_id INTEGER NOT NULL REFERENCES reminder(id) ON DELETE CASCADE,
            tag TEXT NOT NULL REFERENCES tag(name) ON DELETE CASCADE ON UPDATE CASCADE,
            PRIMARY KEY (reminder_id, tag)) WITHOUT ROWID
        """,
        "CREATE TABLE note(key TEXT PRIMARY KEY, body, owner INTEGER REFERENCES list(id) ON DELETE SET NULL ON UPDATE SET NULL)",
        "CREATE TABLE setting(id INTEGER PRIMARY KEY, list_id INTEGER DEFAULT 0 REFERENCES list(id) ON DELETE SET DEFAULT, value)",
        "CREATE TABLE archive(id INTEGER PRIMARY KEY, list_id INTEGER REFERENCES list(id) ON DELETE RESTRICT, title TEXT)",
        "CREATE TABLE audit(id INTEGER PRIMARY KEY, what TEXT, at INTEGER)",
        "CREATE TABLE counter(name TEXT PRIMARY KEY, n INTEGER NOT NULL)",
        "CREATE TABLE item(id INTEGER PRIMARY KEY, code TEXT UNIQUE, qty INTEGER CHECK (qty >= 0))",
        "CREATE TABLE scratch(a, b)",
        "INSERT INTO list(id, name) VALUES (0, 'inbox')",
        "INSERT INTO counter(name, n) VALUES ('priorities', 0)",
        """
        CREATE TRIGGER reminder_done AFTER UPDATE OF done ON reminder WHEN NEW.done = 1
        BEGIN INSERT INTO audit(what, at) VALUES ('done ' || NEW.id, NEW.id); END
        """,
        """
        CREATE TRIGGER list_deleting BEFORE DELETE ON list
        BEGIN INSERT INTO audit(what, at) VALUES ('deleting list ' || OLD.id, OLD.id); END
        """,
        """
        CREATE TRIGGER audit_trim AFTER INSERT ON audit WHEN (SELECT count(*) FROM audit) > 12
        BEGIN DELETE FROM audit WHERE id = (SELECT min(id) FROM audit); END
        """,
        """
        CREATE TRIGGER item_counted AFTER INSERT ON item
        BEGIN INSERT INTO counter(name, n) VALUES ('items', 1) ON CONFLICT(name) DO UPDATE SET n = n + 1; END
        """,
        "CREATE VIEW open_reminder AS SELECT id, list_id, title FROM reminder WHERE done = 0",
        """
        CREATE TRIGGER open_reminder_insert INSTEAD OF INSERT ON open_reminder
        BEGIN INSERT INTO reminder(list_id, title) VALUES (NEW.list_id, NEW.title); END
        """,
        """
        CREATE TRIGGER open_reminder_delete INSTEAD OF DELETE ON open_reminder
        BEGIN UPDATE reminder SET done = 1 WHERE id = OLD.id; END
        """,
    ]

    /// The migrations of the workload's app: the schema, then (for a reopening halfway) a second version
    /// that adds a column, fills it and rebuilds a table the SQLite way (create, copy, drop, rename).
    public static func plan(version: Int) -> BoutiqueMigrationPlan {
        BoutiqueMigrationPlan {
            BoutiqueMigration("v1_schema") { conn in
                for statement in schema { try conn.execute(statement) }
            }
            if version >= 2 {
                BoutiqueMigration("v2_pinned_and_rebuilt_scratch") { conn in
                    try conn.execute("ALTER TABLE note ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0")
                    try conn.execute("UPDATE note SET pinned = 1 WHERE owner IS NOT NULL")
                    try conn.execute("CREATE TABLE scratch_new(a, b, rebuilt DEFAULT 1)")
                    try conn.execute("INSERT INTO scratch_new(a, b) SELECT a, b FROM scratch")
                    try conn.execute("DROP TABLE scratch")
                    try conn.execute("ALTER TABLE scratch_new RENAME TO scratch")
                }
            }
        }
    }

    public var random: SeededRandom
    private var savepointCounter = 0
    private var scratchCounter = 0

    public init(seed: UInt64) {
        random = SeededRandom(seed: seed)
    }

    /// The steps of one transaction: a few statements, sometimes inside nested savepoints.
    public mutating func transaction() -> [Step] {
        var steps: [Step] = []
        for _ in 0..<random.int(in: 1...5) {
            if random.chance(15) {
                steps += savepointBlock(depth: 0)
            } else {
                steps.append(statement())
            }
        }
        if random.chance(4) { steps.append(.fail) }
        return steps
    }

    private mutating func savepointBlock(depth: Int) -> [Step] {
        savepointCounter += 1
        let name = "sp\(savepointCounter)"
        var steps: [Step] = [.statement("SAVEPOINT \(name)", [])]
        for _ in 0..<random.int(in: 1...3) {
            if depth < 2, random.chance(25) { steps += savepointBlock(depth: depth + 1) } else { steps.append(statement()) }
        }
        switch random.below(3) {
        case 0: steps.append(.statement("ROLLBACK TO \(name)", []))
        case 1: steps += [.statement("ROLLBACK TO \(name)", []), statement(), .statement("RELEASE \(name)", [])]
        default: steps.append(.statement("RELEASE \(name)", []))
        }
        return steps
    }

    private mutating func listID() -> DatabaseValue { .integer(Int64(random.int(in: 0...12))) }
    private mutating func reminderID() -> DatabaseValue { .integer(Int64(random.int(in: 1...40))) }
    private mutating func tagName() -> DatabaseValue { .text(random.pick(["red", "Red", "blue", "work", "home", "ünï", "x"])) }
    private mutating func title() -> DatabaseValue {
        switch random.below(6) {
        case 0: .null
        case 1: .integer(Int64(random.int(in: -5...5)))
        case 2: .real(Double(random.int(in: 0...100)) / 4)
        case 3: .blob([0, 1, UInt8(random.below(256))])
        default: .text(random.pick(["milk", "Call Mum", "", "o'clock", "日本", "Z"]))
        }
    }
    private mutating func conflict() -> String { random.pick(["", "OR IGNORE ", "OR REPLACE ", "OR ABORT ", "OR FAIL ", "OR ROLLBACK "]) }

    /// One statement of any of the kinds.
    public mutating func statement() -> Step {
        switch random.below(34) {
        case 0, 1:
            let rows = random.int(in: 1...3)
            var arguments: [DatabaseValue] = []
            for _ in 0..<rows { arguments += [listID(), .text(random.pick(["A", "B", "C"])), .integer(Int64(random.below(4)))] }
            let values = Array(repeating: "(?, ?, ?)", count: rows).joined(separator: ", ")
            return .statement("INSERT \(conflict())INTO list(id, name, position) VALUES \(values)", arguments)
        case 2, 3, 4:
            return .statement(
                "INSERT \(conflict())INTO reminder(id, list_id, title, priority) VALUES (?, ?, ?, ?)",
                [random.chance(50) ? .null : reminderID(), listID(), title(), title()])
        case 5:
            return .statement("UPDATE reminder SET done = 1 - done, title = ? WHERE id % 7 = ?", [title(), .integer(Int64(random.below(7)))])
        case 6:
            return .statement("UPDATE \(conflict())reminder SET id = id + ? WHERE id = ?", [.integer(Int64(random.int(in: 1...5))), reminderID()])
        case 7:
            // A new rowid for a parent: ON UPDATE CASCADE and SET NULL below it.
            return .statement("UPDATE \(conflict())list SET id = ? WHERE id = ?", [.integer(Int64(random.int(in: 1...14))), listID()])
        case 8, 9:
            // Cascades through reminder to reminder_tag, SET NULL on note, SET DEFAULT on setting,
            // RESTRICT on archive (which then fails the statement), and a BEFORE DELETE trigger.
            return .statement("DELETE FROM list WHERE id = ?", [.integer(Int64(random.int(in: 1...12)))])
        case 10:
            return .statement("INSERT \(conflict())INTO tag(name, color) VALUES (?, ?)", [tagName(), title()])
        case 11:
            return .statement("UPDATE \(conflict())tag SET name = ? WHERE name = ?", [tagName(), tagName()])
        case 12:
            return .statement("DELETE FROM tag WHERE name = ?", [tagName()])
        case 13, 14:
            return .statement("INSERT \(conflict())INTO reminder_tag(reminder_id, tag) VALUES (?, ?)", [reminderID(), tagName()])
        case 15:
            return .statement(
                "INSERT \(conflict())INTO note(key, body, owner) VALUES (?, ?, ?)",
                [.text(random.pick(["a", "b", "c", "d"])), title(), listID()])
        case 16:
            return .statement("UPDATE note SET key = key || 'x', rowid = rowid + 100 WHERE key = ?", [.text(random.pick(["a", "b", "c"]))])
        case 17:
            return .statement("INSERT \(conflict())INTO setting(id, list_id, value) VALUES (?, ?, ?)", [.integer(Int64(random.below(5))), listID(), title()])
        case 18:
            return .statement("INSERT \(conflict())INTO archive(id, list_id, title) VALUES (?, ?, ?)", [.integer(Int64(random.below(5))), listID(), title()])
        case 19:
            let upsert = random.chance(30) ? "DO NOTHING" : "DO UPDATE SET n = n + excluded.n"
            return .statement(
                "INSERT INTO counter(name, n) VALUES (?, ?) ON CONFLICT(name) \(upsert)",
                [.text(random.pick(["a", "b", "items"])), .integer(Int64(random.int(in: 1...3)))])
        case 20:
            // A REPLACE on the UNIQUE code deletes the row holding it; the CHECK can fail half-way.
            let rows = random.int(in: 1...3)
            var arguments: [DatabaseValue] = []
            for _ in 0..<rows { arguments += [.integer(Int64(random.int(in: 1...6))), .text(random.pick(["p", "q", "r"])), .integer(Int64(random.int(in: -1...9)))] }
            let values = Array(repeating: "(?, ?, ?)", count: rows).joined(separator: ", ")
            return .statement("INSERT \(conflict())INTO item(id, code, qty) VALUES \(values)", arguments)
        case 21:
            return .statement("INSERT INTO open_reminder(list_id, title) VALUES (?, ?)", [listID(), title()])
        case 22:
            return .statement("DELETE FROM open_reminder WHERE id = ?", [reminderID()])
        case 23:
            return random.chance(50)
                ? .statement("INSERT INTO audit(what, at) VALUES (?, ?) RETURNING id, what", [title(), .integer(Int64(random.below(9)))])
                : .partlyRead("UPDATE reminder SET priority = ? WHERE list_id = ? RETURNING id", [title(), listID()])
        case 24:
            return .statement(random.pick(["DELETE FROM audit", "DELETE FROM scratch", "DELETE FROM reminder_tag"]), [])
        case 25:
            return .statement("UPDATE item SET qty = qty - ? WHERE code = ?", [.integer(Int64(random.int(in: 0...4))), .text(random.pick(["p", "q", "r"]))])
        case 26:
            return .statement("INSERT INTO scratch VALUES (?, ?)", [title(), title()])
        case 27, 28:
            return schemaStatement()
        case 29:
            return .statement("PRAGMA recursive_triggers = \(random.chance(50) ? "ON" : "OFF")", [])
        // The temporary view and the list's rename reach the temporary triggers.
        case 30:
            return .statement("INSERT INTO pending_reminder(list_id, title) VALUES (?, ?)", [listID(), title()])
        case 31:
            return .statement("UPDATE pending_reminder SET title = ? WHERE id % 5 = ?", [title(), .integer(Int64(random.below(5)))])
        case 32:
            return .statement("DELETE FROM pending_reminder WHERE id = ?", [reminderID()])
        default:
            return .statement("UPDATE \(conflict())list SET name = ? WHERE id = ?", [.text(random.pick(["A", "B", "it's"])), listID()])
        }
    }

    /// A schema change. Some fail (a column that is already there or gone), as they may in an app.
    private mutating func schemaStatement() -> Step {
        scratchCounter += 1
        let column = "c\(random.below(4))"
        switch random.below(9) {
        case 0: return .statement("ALTER TABLE scratch ADD COLUMN \(column) DEFAULT 'd\(scratchCounter)'", [])
        case 1: return .statement("ALTER TABLE scratch DROP COLUMN \(column)", [])
        case 2: return .statement("ALTER TABLE scratch RENAME COLUMN \(column) TO c\(random.below(4))", [])
        case 3: return .statement("UPDATE scratch SET \(column) = ?", [title()])
        case 4: return .statement("CREATE INDEX IF NOT EXISTS scratch_\(column) ON scratch(\(column))", [])
        case 5: return .statement("CREATE TABLE copy\(random.below(3)) AS SELECT * FROM reminder WHERE list_id = ?", [listID()])
        case 6: return .statement("DROP TABLE IF EXISTS copy\(random.below(3))", [])
        case 7: return .statement("ALTER TABLE copy\(random.below(3)) RENAME TO copy\(random.below(3))", [])
        default: return .statement("INSERT INTO copy\(random.below(3)) SELECT * FROM copy\(random.below(3))", [])
        }
    }
}

extension ReplayWorkload.Step {
    public struct Failure: Error {
        public init() {}
    }

    /// Runs the step, swallowing the statement errors a workload expects. Statements without values go
    /// through `execute`, the others through the statement cache or prepared and stepped.
    public func run(on connection: DatabaseConnection) throws {
        switch self {
        case .statement(let sql, let arguments) where arguments.isEmpty:
            do { try connection.connection.execute(sql) } catch {}
        case .statement(let sql, let arguments) where sql.utf8.count % 2 == 0:
            // From the connection's statement cache: after a schema change SQLite prepares such a
            // statement again inside its next step.
            do { try connection.execute(sql, arguments) } catch {}
        case .statement(let sql, let arguments):
            do {
                let statement = try connection.connection.prepare(sql)
                defer { statement.finalize() }
                try statement.bind(arguments)
                while try statement.step() {}
            } catch {}
        case .partlyRead(let sql, let arguments):
            do {
                let statement = try connection.connection.prepare(sql)
                defer { statement.finalize() }
                try statement.bind(arguments)
                _ = try statement.step()
                try statement.reset()
            } catch {}
        case .fail:
            throw Failure()
        }
    }
}
