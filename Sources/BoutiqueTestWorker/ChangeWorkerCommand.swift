import BoutiqueDB
import Foundation

/// Worker commands for the change-capture and live-query tests: another process committing to a file
/// that a test observes.
///
///     BoutiqueTestWorker stamp <path> <table> <count> [--pause <seconds>]
///
/// `stamp` opens `path` for several processes with ``ChangeWorkerPlans/stamps`` and commits `count`
/// one-row transactions to `table` (`stamp` or `other`), each row holding the wall-clock time just
/// before its commit, so the observer can tell how long the commit took to reach it.
enum ChangeWorkerCommand {
    case stamp(path: String, table: String, count: Int, pause: Double)

    /// The command `arguments` name, or `nil` when they name none of these.
    init?(arguments: [String]) throws {
        guard arguments.first == "stamp" else { return nil }
        guard arguments.count >= 4, ["stamp", "other"].contains(arguments[2]), let count = Int(arguments[3]) else {
            throw WorkerCommand.UsageError(description: "usage: stamp <path> stamp|other <count> [--pause <seconds>]")
        }
        var pause = 0.0
        if let index = arguments.firstIndex(of: "--pause"), index + 1 < arguments.count {
            pause = Double(arguments[index + 1]) ?? 0
        }
        self = .stamp(path: arguments[1], table: arguments[2], count: count, pause: pause)
    }

    func run() async throws -> String {
        switch self {
        case .stamp(let path, let table, let count, let pause):
            let database = try await DatabaseActor.open(
                url: URL(fileURLWithPath: path), migrations: ChangeWorkerPlans.stamps,
                options: .init(multiProcess: true, busyTimeout: .seconds(20)))
            for _ in 0..<count {
                try await database.write { conn in
                    try conn.execute("INSERT INTO \(table)(sentAt) VALUES (?)", [.real(Date().timeIntervalSince1970)])
                }
                if pause > 0 { try await Task.sleep(for: .seconds(pause)) }
            }
            await database.close()
            return "\(count)"
        }
    }
}

/// The migration plan of the files `stamp` writes; the tests open them with the same plan.
enum ChangeWorkerPlans {
    static let stamps = BoutiqueMigrationPlan {
        BoutiqueMigration("v1_stamps") { conn in
            try conn.execute("CREATE TABLE stamp(id INTEGER PRIMARY KEY, sentAt REAL NOT NULL)")
            try conn.execute("CREATE TABLE other(id INTEGER PRIMARY KEY, sentAt REAL NOT NULL)")
        }
    }
}
