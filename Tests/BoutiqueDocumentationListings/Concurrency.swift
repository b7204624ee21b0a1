import BoutiqueDB
import Foundation
import Synchronization

// The listings of the Concurrency article.

public enum Concurrency {
    @Table
    struct Note: Sendable {
        @Column(primaryKey: true) let id: UUID
        var title: String
        var body: String
        var updatedAt: Date = Date()
        var isPinned: Bool = false
    }

    static let plan = BoutiqueMigrationPlan {
        BoutiqueMigration("v1_create_notes") { conn in
            try conn.execute("""
                CREATE TABLE note (id TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL, body TEXT NOT NULL,
                                   updatedAt REAL NOT NULL, isPinned INTEGER NOT NULL DEFAULT 0)
                """)
        }
    }

    struct DuplicateTitle: Error {}

    /// Two values read in one snapshot, reads side by side, a write that refuses a duplicate.
    @MainActor
    public static func readsAndWrites() async throws -> [Int] {
        let db = try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: plan)
        try await db.write { conn in
            try Note.insert {
                Note(id: UUID(), title: "Groceries", body: "", isPinned: true)
                Note(id: UUID(), title: "Plumber", body: "")
            }.execute(conn)
        }

        let (pinned, total) = try await db.read { conn in
            (try Note.where { $0.isPinned }.fetchCount(conn), try Note.all.fetchCount(conn))
        }

        async let notes = db.read { conn in try Note.all.fetchAll(conn) }
        async let titles = db.read { conn in try Note.all.select { $0.title }.fetchAll(conn) }
        let (everyNote, everyTitle) = try await (notes, titles)

        let title = "Groceries"
        var refused = 0
        do {
            try await db.write { conn in
                try Note.insert { Note(id: UUID(), title: title, body: "") }.execute(conn)
                let sameTitle = try Note.where { $0.title == title }.fetchCount(conn)
                if sameTitle > 1 { throw DuplicateTitle() }   // rolls the insert back
            }
        } catch is DuplicateTitle {
            refused += 1
        }

        let after = try await db.read { conn in try Note.all.fetchCount(conn) }
        await db.close()
        return [pinned, total, everyNote.count, everyTitle.count, refused, after]
    }

    /// A read cancelled while it runs: the statement stops and the read throws `.cancelled`.
    @MainActor
    public static func cancellation() async throws -> BoutiqueError? {
        let db = try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: plan)
        try await db.write { conn in
            try Note.insert {
                for index in 0..<2_000 { Note(id: UUID(), title: "Note \(index)", body: "") }
            }.execute(conn)
        }
        let exporter = Exporter()

        let export = Task {
            try await db.read { conn in
                try Note.all.forEach(conn) { note in exporter.write(note) }
            }
        }

        await exporter.started.wait()
        export.cancel()
        exporter.cancelled.open()

        var caught: BoutiqueError?
        do { try await export.value } catch let error as BoutiqueError { caught = error }
        await db.close()
        return caught
    }

    /// The writer outside a transaction, for statements that refuse to run in one.
    @MainActor
    public static func vacuum() async throws {
        let db = try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: plan)
        try await db.writeWithoutTransaction { conn in try conn.execute("VACUUM") }
        await db.close()
    }

    /// The database without a main actor: a server, a command-line tool, a background job.
    public static func serverSide(url: URL) async throws -> Int {
        let database = try await DatabaseActor.open(url: url, migrations: plan)
        let count = try await database.read { conn in try Note.all.fetchCount(conn) }
        await database.close()
        return count
    }

    /// The options a database shared by many concurrent readers might choose.
    static let options = DatabaseOptions(readerCount: 8, busyTimeout: .seconds(10))
}

/// Writes notes out slowly, and says when it has begun.
final class Exporter: Sendable {
    let started = Latch()
    /// Opened once the export is cancelled: the first row's write waits for it, so that the export
    /// is still running when the cancellation comes however late the waiting task is scheduled.
    let cancelled = Latch()

    func write(_ note: Concurrency.Note) {
        started.open()
        while !cancelled.isOpen { Thread.sleep(forTimeInterval: 0.001) }   // the work done per row
    }
}

/// A one-shot signal from a synchronous closure to an awaiting task.
final class Latch: Sendable {
    private let state = Mutex(false)

    func open() { state.withLock { $0 = true } }

    var isOpen: Bool { state.withLock { $0 } }

    func wait() async {
        while !state.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(1)) }
    }
}
