import BoutiqueDB
import BoutiqueReplayWorkload
import BoutiqueTestSupport
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One invocation of the worker, parsed from its arguments.
enum WorkerCommand {
    /// Opens `path` for several processes and commits `count` one-row transactions tagged `tag`,
    /// pausing `pause` seconds between them as an app does between writes.
    case insert(path: String, count: Int, tag: String, startAt: Double?, pause: Double)
    /// Opens `path` with ``WorkerPlans/racingMigrations``.
    case migrate(path: String, startAt: Double?)
    /// Opens `path` with no migrations, optionally as the unprivileged user `nobody`.
    case open(path: String, asNobody: Bool)
    /// Commits transactions of three rows each until the process is killed, printing
    /// `committed <n>` as soon as transaction `n` has committed.
    case writeUntilKilled(path: String)
    /// Opens `path` with version `plan` of ``ReplayWorkload``'s migrations and commits `count` of the
    /// workload's transactions for `seed`, printing how many committed.
    case replayWrite(path: String, plan: Int, seed: UInt64, count: Int)
    /// Reads the change feed of `path` from `since` up to the token current when it starts, printing the
    /// token of each transaction on a line.
    case replayFeed(path: String, plan: Int, since: Int64)
    /// Opens `path` and stores the contents of `file` (read to its end: a pipe works) as an attachment,
    /// printing its id and byte count.
    case attachmentPut(path: String, file: String, contentType: String, reportsPeak: Bool)

    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    init(arguments: [String]) throws {
        guard let name = arguments.first, arguments.count >= 2 else {
            throw UsageError(
                description:
                    "usage: insert <path> <count> <tag> | migrate <path> | open <path> | write-until-killed <path> | replay-write <path> <plan> <seed> <count> | replay-feed <path> <plan> <since> | attachment-put <path> <file> <type> [--report-peak]")
        }
        let path = arguments[1]
        let startAt = Self.value(after: "--start-at", in: arguments).flatMap(Double.init)
        switch name {
        case "insert":
            guard arguments.count >= 4, let count = Int(arguments[2]) else {
                throw UsageError(description: "usage: insert <path> <count> <tag>")
            }
            let pause = Self.value(after: "--pause", in: arguments).flatMap(Double.init) ?? 0
            self = .insert(path: path, count: count, tag: arguments[3], startAt: startAt, pause: pause)
        case "migrate":
            self = .migrate(path: path, startAt: startAt)
        case "open":
            self = .open(path: path, asNobody: arguments.contains("--as-nobody"))
        case "write-until-killed":
            self = .writeUntilKilled(path: path)
        case "replay-write":
            guard arguments.count >= 5, let plan = Int(arguments[2]), let seed = UInt64(arguments[3]), let count = Int(arguments[4]) else {
                throw UsageError(description: "usage: replay-write <path> <plan> <seed> <count>")
            }
            self = .replayWrite(path: path, plan: plan, seed: seed, count: count)
        case "replay-feed":
            guard arguments.count >= 4, let plan = Int(arguments[2]), let since = Int64(arguments[3]) else {
                throw UsageError(description: "usage: replay-feed <path> <plan> <since>")
            }
            self = .replayFeed(path: path, plan: plan, since: since)
        case "attachment-put":
            guard arguments.count >= 4 else {
                throw UsageError(description: "usage: attachment-put <path> <file> <content type> [--report-peak]")
            }
            self = .attachmentPut(path: path, file: arguments[2], contentType: arguments[3], reportsPeak: arguments.dropFirst(4).contains("--report-peak"))
        default:
            throw UsageError(description: "unknown command \(name)")
        }
    }

    /// This process's resident high-water mark in bytes: `VmHWM` on Linux (its own address space's
    /// alone), `ru_maxrss` elsewhere; 0 when it cannot be read.
    static func ownPeakResidentBytes() -> Int {
        #if os(Linux)
        return ChildProcess.residentHighWaterMark(of: getpid()) ?? 0
        #else
        var usage = rusage()
        guard getrusage(RUSAGE_SELF, &usage) == 0 else { return 0 }
        return Int(usage.ru_maxrss)
        #endif
    }

    func run() async throws -> String {
        switch self {
        case .insert(let path, let count, let tag, let startAt, let pause):
            Self.wait(until: startAt)
            let database = try await DatabaseActor.open(
                url: URL(fileURLWithPath: path), migrations: WorkerPlans.sharedRows,
                options: .init(multiProcess: true, busyTimeout: .seconds(20)))
            for index in 0..<count {
                try await database.write { conn in
                    try conn.execute("INSERT INTO row(tag, n) VALUES (?, ?)", [.text(tag), .integer(Int64(index))])
                }
                if pause > 0 { try await Task.sleep(for: .seconds(pause)) }
            }
            await database.close()
            return "\(count)"
        case .migrate(let path, let startAt):
            Self.wait(until: startAt)
            let database = try await DatabaseActor.open(
                url: URL(fileURLWithPath: path), migrations: WorkerPlans.racingMigrations,
                options: .init(multiProcess: true, busyTimeout: .seconds(20)))
            let applied = try await database.appliedMigrations().map(\.id)
            await database.close()
            return applied.joined(separator: ",")
        case .writeUntilKilled(let path):
            let database = try await DatabaseActor.open(
                url: URL(fileURLWithPath: path), migrations: WorkerPlans.sharedRows, options: .init(multiProcess: true))
            var transaction: Int64 = 0
            while true {
                try await database.write { [transaction] conn in
                    for _ in 0..<3 {
                        try conn.execute("INSERT INTO row(tag, n) VALUES ('crash', ?)", [.integer(transaction)])
                    }
                }
                // Written straight to the pipe, unbuffered: the test trusts every line it has read.
                FileHandle.standardOutput.write(Data("committed \(transaction)\n".utf8))
                transaction += 1
            }
        case .replayWrite(let path, let plan, let seed, let count):
            var options = DatabaseOptions(multiProcess: true, busyTimeout: .seconds(20))
            options.prepareDatabase { conn in try ReplayWorkload.createTemporaryObjects(on: conn) }
            let database = try await DatabaseActor.open(
                url: URL(fileURLWithPath: path), migrations: ReplayWorkload.plan(version: plan), options: options)
            var workload = ReplayWorkload(seed: seed)
            var committed = 0
            for _ in 0..<count {
                let steps = workload.transaction()
                do {
                    try await database.write { conn in for step in steps { try step.run(on: conn) } }
                    committed += 1
                } catch is ReplayWorkload.Step.Failure {
                } catch is BoutiqueError {
                    // An `OR ROLLBACK` ended the transaction under the closure; the write said so.
                }
            }
            await database.close()
            return "\(committed)"
        case .replayFeed(let path, let plan, let since):
            let database = try await DatabaseActor.open(
                url: URL(fileURLWithPath: path), migrations: ReplayWorkload.plan(version: plan),
                options: .init(multiProcess: true))
            let end = try await database.currentToken()
            var lines: [String] = []
            if end.changeID > since {
                for try await transaction in database.changes(since: ChangeToken(changeID: since)) {
                    lines.append("\(transaction.token.changeID) \(transaction.changes.count)")
                    if transaction.token.changeID >= end.changeID { break }
                }
            }
            await database.close()
            return lines.joined(separator: ",")
        case .attachmentPut(let path, let file, let contentType, let reportsPeak):
            let database = try await DatabaseActor.open(url: URL(fileURLWithPath: path), options: .init(multiProcess: true))
            let attachment = try await database.attachments.store(contentsOf: URL(fileURLWithPath: file), contentType: contentType)
            await database.close()
            // The process's own peak, for tests that bound it (what its parent sees through wait4 also
            // counts the parent's own peak, which the child's exec inherits on Linux).
            let peak = reportsPeak ? " \(Self.ownPeakResidentBytes())" : ""
            return "\(attachment.id) \(attachment.byteCount)\(peak)"
        case .open(let path, let asNobody):
            if asNobody { try Self.becomeNobody() }
            let database = try await DatabaseActor.open(url: URL(fileURLWithPath: path))
            await database.close()
            return "opened"
        }
    }

    /// Sleeps until the given wall-clock time, so that processes started one after the other act together.
    private static func wait(until startAt: Double?) {
        guard let startAt else { return }
        let delay = startAt - Date().timeIntervalSince1970
        if delay > 0 { Thread.sleep(forTimeInterval: delay) }
    }

    /// Drops root privileges, so that file permissions apply (root may write any file).
    private static func becomeNobody() throws {
        guard getuid() == 0 else { return }
        let nobody: UInt32 = 65534
        guard setgid(nobody) == 0, setuid(nobody) == 0 else {
            throw UsageError(description: "could not switch to the user nobody")
        }
    }

    private static func value(after flag: String, in arguments: [String]) -> String? {
        guard let index = arguments.firstIndex(of: flag), index + 1 < arguments.count else { return nil }
        return arguments[index + 1]
    }
}
