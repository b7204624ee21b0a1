import BoutiqueDB
import Foundation

/// Worker commands for the reliability tests: a writer to kill at random moments, and one of several
/// processes loading one file while a live query watches it.
///
///     BoutiqueTestWorker ledger-until-killed <path>
///     BoutiqueTestWorker load <path> <tag> <count> <expected total> [--start-at <unix seconds>]
///     BoutiqueTestWorker hold-exclusive <path> <seconds> [--until <file>]
///     BoutiqueTestWorker store-blob <path> <megabytes> full|off
///
/// `ledger-until-killed` continues the numbering it finds in the file and commits transactions of
/// ``ReliabilityWorkerPlans/rowsPerTransaction`` inserts and one update each, printing `ready <n>` once
/// open and `committed <n>` after each commit returns. `load` commits `count` one-row transactions with
/// a live count of the table open, then waits (at most a minute) until that count shows `expected total`
/// and prints `ok wrote <count> observed <last count seen>`. `hold-exclusive` takes an exclusive lock with
/// plain SQLite, prints `locked`, and holds it for `seconds`, or with `--until` until `file` exists (at
/// most `seconds`): a test that must act while the lock is held releases it when done, however slowly a
/// loaded machine runs it. `store-blob` inserts one blob of `megabytes` MiB in one write, with change
/// capture `full` or `off`, reads back its length and last two bytes, and prints `stored <length> <hex>`
/// or `refused <extended code>`, then the process's own peak resident bytes: a test bounds the memory a
/// large value costs in a process where nothing else runs.
enum ReliabilityWorkerCommand {
    case ledgerUntilKilled(path: String)
    case load(path: String, tag: String, count: Int, expectedTotal: Int, startAt: Double?)
    case holdExclusive(path: String, seconds: Double, until: String?)
    case storeBlob(path: String, megabytes: Int, capture: ChangeCaptureMode)

    /// The command `arguments` name, or `nil` when they name none of these.
    init?(arguments: [String]) throws {
        switch arguments.first {
        case "ledger-until-killed":
            guard arguments.count >= 2 else { throw WorkerCommand.UsageError(description: "usage: ledger-until-killed <path>") }
            self = .ledgerUntilKilled(path: arguments[1])
        case "load":
            guard arguments.count >= 5, let count = Int(arguments[3]), let total = Int(arguments[4]) else {
                throw WorkerCommand.UsageError(description: "usage: load <path> <tag> <count> <expected total>")
            }
            var startAt: Double?
            if let index = arguments.firstIndex(of: "--start-at"), index + 1 < arguments.count {
                startAt = Double(arguments[index + 1])
            }
            self = .load(path: arguments[1], tag: arguments[2], count: count, expectedTotal: total, startAt: startAt)
        case "hold-exclusive":
            guard arguments.count >= 3, let seconds = Double(arguments[2]) else {
                throw WorkerCommand.UsageError(description: "usage: hold-exclusive <path> <seconds>")
            }
            var until: String?
            if let index = arguments.firstIndex(of: "--until"), index + 1 < arguments.count { until = arguments[index + 1] }
            self = .holdExclusive(path: arguments[1], seconds: seconds, until: until)
        case "store-blob":
            guard arguments.count >= 4, let megabytes = Int(arguments[2]), megabytes > 0,
                let capture = ["full": ChangeCaptureMode.full, "off": .off][arguments[3]]
            else {
                throw WorkerCommand.UsageError(description: "usage: store-blob <path> <megabytes> full|off")
            }
            self = .storeBlob(path: arguments[1], megabytes: megabytes, capture: capture)
        default:
            return nil
        }
    }

    func run() async throws -> String {
        switch self {
        case .ledgerUntilKilled(let path):
            try await writeLedger(path: path)
        case .load(let path, let tag, let count, let expectedTotal, let startAt):
            try await load(path: path, tag: tag, count: count, expectedTotal: expectedTotal, startAt: startAt)
        case .holdExclusive(let path, let seconds, let until):
            try holdExclusive(path: path, seconds: seconds, until: until)
        case .storeBlob(let path, let megabytes, let capture):
            try await storeBlob(path: path, megabytes: megabytes, capture: capture)
        }
    }

    private func storeBlob(path: String, megabytes: Int, capture: ChangeCaptureMode) async throws -> String {
        let database = try await DatabaseActor.open(
            url: URL(fileURLWithPath: path), migrations: ReliabilityWorkerPlans.blobs,
            options: .init(changeCapture: .init(mode: capture)))
        let size = megabytes * 1024 * 1024
        let outcome: String
        do {
            try await database.write { conn in
                var blob = [UInt8](repeating: 0xAB, count: size)
                blob[size - 1] = 0xCD
                try conn.execute("INSERT INTO blobs(id, data) VALUES (1, ?)", [.blob(blob)])
            }
            let check = try await database.read { conn in
                try conn.fetchAll("SELECT length(data), hex(substr(data, -2)) FROM blobs WHERE id = 1").map { Array($0) }
            }
            outcome = "stored " + (check.first?.map { "\($0)" }.joined(separator: " ") ?? "nothing")
        } catch let error as BoutiqueError {
            guard case .sql(let code, _) = error else { throw error }
            outcome = "refused \(code.rawValue)"
        }
        // Whether stored or refused, the file takes the next write.
        try await database.write { conn in try conn.execute("INSERT INTO keep(id, value) VALUES (1, 'after')") }
        await database.close()
        return "\(outcome) \(WorkerCommand.ownPeakResidentBytes())"
    }

    private func writeLedger(path: String) async throws -> String {
        let database = try await DatabaseActor.open(
            url: URL(fileURLWithPath: path), migrations: ReliabilityWorkerPlans.ledger,
            options: .init(multiProcess: true))
        var transaction = try await database.read { conn -> Int64 in
            if case .integer(let last)? = try conn.fetchValue("SELECT max(txn) FROM ledger") { return last + 1 }
            return 0
        }
        Self.say("ready \(transaction)")
        while true {
            try await database.write { [transaction] conn in
                for part in 0..<ReliabilityWorkerPlans.rowsPerTransaction {
                    try conn.execute(
                        "INSERT INTO ledger(txn, part, payload) VALUES (?, ?, ?)",
                        [.integer(transaction), .integer(Int64(part)), .text("written \(transaction).\(part)")])
                }
                try conn.execute(
                    "UPDATE ledger SET payload = ? WHERE txn = ? AND part = 0",
                    [.text("updated \(transaction)"), .integer(transaction)])
            }
            Self.say("committed \(transaction)")
            transaction += 1
        }
    }

    private func load(path: String, tag: String, count: Int, expectedTotal: Int, startAt: Double?) async throws -> String {
        let database = try await DatabaseActor.open(
            url: URL(fileURLWithPath: path), migrations: ReliabilityWorkerPlans.load,
            options: .init(multiProcess: true, busyTimeout: .seconds(30)))
        let latest = LatestCount()
        let observer = Task {
            for try await counts in database.observe(LoadRow.count()) {
                latest.set(counts.first ?? -1)
                if counts.first == expectedTotal { break }
            }
        }
        if let startAt {
            let delay = startAt - Date().timeIntervalSince1970
            if delay > 0 { try await Task.sleep(for: .seconds(delay)) }
        }
        for index in 0..<count {
            try await database.write { conn in
                try conn.execute("INSERT INTO loadRow(tag, n) VALUES (?, ?)", [.text(tag), .integer(Int64(index))])
            }
        }
        let deadline = Date().addingTimeInterval(60)
        while latest.value != expectedTotal, Date() < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        observer.cancel()
        let seen = latest.value
        await database.close()
        return "wrote \(count) observed \(seen)"
    }

    private func holdExclusive(path: String, seconds: Double, until release: String?) throws -> String {
        let connection = try Connection(path: path)
        try connection.execute("BEGIN EXCLUSIVE")
        Self.say("locked")
        if let release {
            let deadline = Date().addingTimeInterval(seconds)
            while !FileManager.default.fileExists(atPath: release), Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        } else {
            Thread.sleep(forTimeInterval: seconds)
        }
        try connection.execute("ROLLBACK")
        connection.close()
        return "released"
    }

    /// Writes a line straight to the pipe, unbuffered: the test trusts every line it has read.
    private static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}

/// The last count a live query delivered.
private final class LatestCount: Sendable {
    private let count = Lock(-1)
    var value: Int { count.withLock { $0 } }
    func set(_ value: Int) { count.withLock { $0 = value } }
}

/// One row a `load` worker writes.
@Table("loadRow")
struct LoadRow: Sendable {
    let id: Int
    var tag: String
    var n: Int
}

/// The migration plans of the files the reliability workers write; the tests read them with plain SQL.
enum ReliabilityWorkerPlans {
    /// Inserts per `ledger-until-killed` transaction (each transaction also updates its first row).
    static let rowsPerTransaction = 3

    static let ledger = BoutiqueMigrationPlan {
        BoutiqueMigration("v1_ledger") { conn in
            try conn.execute(
                "CREATE TABLE ledger(id INTEGER PRIMARY KEY, txn INTEGER NOT NULL, part INTEGER NOT NULL, payload TEXT NOT NULL)")
        }
    }

    static let blobs = BoutiqueMigrationPlan {
        BoutiqueMigration("v1_blobs") { conn in
            try conn.execute("CREATE TABLE blobs(id INTEGER PRIMARY KEY, data BLOB)")
            try conn.execute("CREATE TABLE keep(id INTEGER PRIMARY KEY, value TEXT NOT NULL)")
        }
    }

    static let load = BoutiqueMigrationPlan {
        BoutiqueMigration("v1_load") { conn in
            try conn.execute("CREATE TABLE loadRow(id INTEGER PRIMARY KEY, tag TEXT NOT NULL, n INTEGER NOT NULL)")
        }
    }
}
