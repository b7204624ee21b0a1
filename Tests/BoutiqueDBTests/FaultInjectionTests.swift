@testable import BoutiqueDB
import BoutiqueSQLite
import CFaultInjection
import CSQLite
import Foundation
import Testing

@Table("note")
struct FaultNote: Sendable {
    @Column(primaryKey: true) var id: Int
    var title: String
}

/// Every I/O failure the operating system can report, at every I/O call of a workload, leaves the
/// database correct: the caller gets a `BoutiqueError`, the file passes `integrity_check`, every write
/// that returned is there and none that threw, the change log replays to the data, and the same
/// instance works again once the fault is gone.
///
/// A VFS wrapping SQLite's default one (`CFaultInjection`) fails the n-th read, write, truncate, sync,
/// lock or shared-memory call of the files in this test's folders, fills the disk from the n-th write
/// on, or tears the n-th write in half. Each kind is swept over every call the workload makes, or over
/// every n-th one and the last when `BOUTIQUE_FAULT_STRIDE` is n (the sanitizer runs, whose workloads are
/// many times slower, take every third).
@Suite(.serialized) struct FaultInjectionTests {
    static let marker = "boutique-faultinject"

    static let plan = BoutiqueMigrationPlan {
        BoutiqueMigration("v1_notes") { conn in
            try conn.execute("CREATE TABLE note(id INTEGER PRIMARY KEY, title TEXT NOT NULL, body BLOB)")
        }
        BoutiqueMigration("v2_tags") { conn in
            try conn.execute("CREATE TABLE tag(name TEXT PRIMARY KEY, note_id INTEGER REFERENCES note(id) ON DELETE CASCADE)")
        }
    }

    /// What one run of the workload did.
    struct Run {
        /// The ids of the writes that returned, and of those that threw.
        var committed: [Int64] = []
        var failed: [Int64] = []
        /// Every error the calls threw, by kind of call.
        var errors: [String] = []
        /// The `BoutiqueError` case of each, with the extended result code of `.sql`.
        var errorCases: [String] = []
        var foreignErrors: [String] = []
        /// Whether the same instance wrote and read again once the fault was gone.
        var recovered = false
        var recoveryError: String?
        var opened = false
        /// The log's token and a copy of the database once the migrations ran.
        var copy: (token: Int64, url: URL)?
        /// What the file held when reopened without faults.
        var file: FileCheck?
    }

    /// The file reopened without faults.
    struct FileCheck {
        var integrity: [String]
        var notes: [Int64]
        /// The first difference between the data and the copy with the log replayed onto it.
        var replayDifference: String?
    }

    static let kinds: [(name: String, kind: boutique_fault_kind)] = [
        ("read", BOUTIQUE_FAULT_READ), ("write", BOUTIQUE_FAULT_WRITE), ("truncate", BOUTIQUE_FAULT_TRUNCATE),
        ("sync", BOUTIQUE_FAULT_SYNC), ("lock", BOUTIQUE_FAULT_LOCK), ("shm", BOUTIQUE_FAULT_SHM),
        ("full disk", BOUTIQUE_FAULT_FULL), ("torn write", BOUTIQUE_FAULT_TORN),
    ]

    /// The sweep's step: 1 (every call) unless `BOUTIQUE_FAULT_STRIDE` says otherwise.
    static let stride = max(1, ProcessInfo.processInfo.environment["BOUTIQUE_FAULT_STRIDE"].flatMap(Int64.init) ?? 1)

    /// The calls a kind's faults are injected at, out of `total`: every `stride`-th from the first, and the last.
    static func points(outOf total: Int64) -> [Int64] {
        let last = max(1, total)
        let swept = Array(Swift.stride(from: Int64(1), through: last, by: Int(stride)))
        return swept.last == last ? swept : swept + [last]
    }

    @Test func everyFaultAtEveryIOCallLeavesTheDatabaseCorrectAndTheInstanceUsable() async throws {
        #expect(boutique_fault_register(Self.marker) == SQLITE_OK)
        // A clean run counts the calls of each kind.
        boutique_fault_arm(BOUTIQUE_FAULT_NONE, 0)
        let clean = try await runWorkload()
        #expect(clean.failed.isEmpty && clean.errors.isEmpty, "\(clean.errors)")
        var counts: [String: Int64] = [:]
        for (name, kind) in Self.kinds { counts[name] = boutique_fault_calls(kind) }
        boutique_fault_arm(BOUTIQUE_FAULT_NONE, 0)

        var exercised: [String] = []
        var cases: [String: [String: Int]] = [:]
        for (name, kind) in Self.kinds {
            let total = counts[name] ?? 0
            var injected = 0
            let points = Self.points(outOf: total)
            for point in points {
                boutique_fault_arm(kind, point)
                let run = try await runWorkload()
                for error in run.errorCases { cases[name, default: [:]][error, default: 0] += 1 }
                if boutique_fault_injected() > 0 { injected += 1 }
                boutique_fault_arm(BOUTIQUE_FAULT_NONE, 0)
                try await check(run, label: "\(name) fault at call \(point) of \(total)")
            }
            exercised.append("\(name) \(injected) of \(points.count)\(Int64(points.count) < total ? " (one call in \(Self.stride), of \(total))" : "")")
        }
        print("fault injection: points exercised per kind — \(exercised.joined(separator: ", "))")
        for (name, _) in Self.kinds {
            let tally = (cases[name] ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }
            print("fault injection: \(name) faults reached the caller as \(tally.isEmpty ? "nothing (SQLite retried or the call was not needed)" : tally.joined(separator: ", "))")
        }
    }

    /// Opens a fresh database in a marked folder, migrates, writes, checkpoints, reads, follows a live
    /// query, then — with the fault removed — writes and reads again on the same instance.
    private func runWorkload() async throws -> Run {
        var run = Run()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(Self.marker)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("fault.db")
        run.copy = nil
        let database: DatabaseActor
        do {
            database = try await DatabaseActor.open(url: url, migrations: Self.plan)
        } catch {
            record(error, as: "open", in: &run)
            boutique_fault_disarm()
            run.file = try checkFile(url, copy: nil)
            try? FileManager.default.removeItem(at: folder)
            return run
        }
        run.opened = true
        // The copy the log is replayed onto, taken with the fault held back.
        boutique_fault_suspend(1)
        run.copy = try? await ChangeLogCopy.take(database, to: folder.appendingPathComponent("copy.db"))
        boutique_fault_suspend(0)
        for id: Int64 in 1...4 {
            do {
                try await database.write { conn in
                    try conn.execute("INSERT INTO note(id, title, body) VALUES (?, ?, zeroblob(3000))", [.integer(id), .text("note \(id)")])
                    try conn.execute("INSERT INTO tag(name, note_id) VALUES (?, ?)", [.text("t\(id)"), .integer(id)])
                    if id > 1 { try conn.execute("UPDATE note SET title = title || '!' WHERE id = ?", [.integer(id - 1)]) }
                }
                run.committed.append(id)
            } catch {
                record(error, as: "write \(id)", in: &run)
                run.failed.append(id)
            }
        }
        do {
            try await database.writeWithoutTransaction { conn in try conn.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
        } catch { record(error, as: "checkpoint", in: &run) }
        do { _ = try await database.read { conn in try conn.fetchAll("SELECT * FROM note") } } catch {
            record(error, as: "read", in: &run)
        }
        do {
            var iterator = database.observe(FaultNote.all).makeAsyncIterator()
            _ = try await iterator.next()
        } catch { record(error, as: "live query", in: &run) }

        // The fault is gone: the same instance writes and reads again.
        boutique_fault_disarm()
        do {
            try await database.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES (100, 'after')") }
            let count = try await database.read { conn in try conn.fetchValue("SELECT count(*) FROM note WHERE id = 100") }
            run.recovered = count == .integer(1)
            if run.recovered { run.committed.append(100) }
        } catch {
            run.recoveryError = "\(error)"
        }
        await database.close()
        run.file = try checkFile(url, copy: run.copy)
        try? FileManager.default.removeItem(at: folder)
        return run
    }

    private func record(_ error: any Error, as call: String, in run: inout Run) {
        guard let error = error as? BoutiqueError else {
            run.foreignErrors.append("\(call): \(error)")
            return
        }
        run.errors.append("\(call): \(error)")
        switch error {
        case .sql(let code, _): run.errorCases.append(".sql(\(code.rawValue))")
        default: run.errorCases.append(String(describing: error).prefix { $0 != ":" }.description)
        }
    }

    /// Reopens the file without faults: its integrity, its notes, and whether its change log replays onto
    /// the copy to give its data.
    private func checkFile(_ url: URL, copy: (token: Int64, url: URL)?) throws -> FileCheck? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let connection = try Connection(path: url.path)
        defer { connection.close() }
        try connection.setBusyTimeout(milliseconds: 5_000)
        var check = FileCheck(integrity: try connection.integrityCheck(), notes: [])
        guard try connection.fetchValue("SELECT count(*) FROM sqlite_schema WHERE name = 'note'") == .integer(1) else { return check }
        check.notes = try connection.fetchRows("SELECT id FROM note ORDER BY id").rows.compactMap { row -> Int64? in
            if case .integer(let id) = row[0] { id } else { nil }
        }
        if let copy {
            let replica = try Connection(path: copy.url.path)
            defer { replica.close() }
            do {
                try ChangeLogReplayer(replica).apply(try ChangeLogReplayer.rows(of: connection, after: copy.token))
                check.replayDifference = try DatabaseContents(of: replica).difference(from: DatabaseContents(of: connection))
            } catch {
                check.replayDifference = "\(error)"
            }
        }
        return check
    }

    private func check(_ run: Run, label: String) async throws {
        #expect(run.foreignErrors.isEmpty, "\(label): errors that are not BoutiqueError: \(run.foreignErrors)")
        guard let file = run.file else { return }
        #expect(file.replayDifference == nil, "\(label): the change log does not replay to the data: \(file.replayDifference ?? "")")
        #expect(file.integrity == ["ok"], "\(label): integrity \(file.integrity)")
        for id in run.committed {
            #expect(file.notes.contains(id), "\(label): the write of note \(id) returned but the note is missing; errors \(run.errors)")
        }
        for id in run.failed {
            #expect(!file.notes.contains(id), "\(label): the write of note \(id) threw but the note is there; errors \(run.errors)")
        }
        if run.opened {
            #expect(run.recovered, "\(label): the instance did not recover once the fault was gone: \(run.recoveryError ?? "")")
        }
    }
}
