@testable import BoutiqueDB
import Foundation
import Testing

/// Waits, on the main actor, until `condition` holds; fails with ``TimedOut`` after
/// ``hangDeadline(seconds:)``.
@MainActor
func eventually(_ what: String = "condition", within seconds: Double = 5, _ condition: @MainActor () -> Bool) async throws {
    let deadline = ContinuousClock.now + .milliseconds(Int(hangDeadline(seconds: seconds) * 1000))
    while !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("timed out waiting for \(what)")
            throw TimedOut(seconds: seconds)
        }
        try await Task.sleep(for: .milliseconds(1))
    }
}

/// Inserts a note with `title` through the query builder.
func insertNote(_ db: BoutiqueDB, _ title: String, at time: Double = Date().timeIntervalSince1970) async throws {
    try await db.write { conn in
        try Note.insert { Note(id: UUID(), title: title, body: "", updatedAt: Date(timeIntervalSince1970: time)) }
            .execute(conn.connection)
    }
}

/// A plan with the seed's `note` table and a `counter` table nobody observes.
enum LiveQueryMigrations {
    static let plan = BoutiqueMigrationPlan {
        BoutiqueMigration("v1_create_notes") { conn in
            try conn.execute("CREATE TABLE note (id TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL, body TEXT NOT NULL, updatedAt REAL NOT NULL)")
        }
        BoutiqueMigration("v2_counter") { conn in
            try conn.execute("CREATE TABLE counter(id INTEGER PRIMARY KEY, label TEXT NOT NULL DEFAULT '')")
        }
    }
}

/// Blocks the calling thread (the main actor, in a test) until `condition` holds, to keep it busy.
func block(until condition: () -> Bool) {
    while !condition() { Thread.sleep(forTimeInterval: 0.001) }
}

extension DatabaseOptions {
    /// The default options, except that a live query counts as quick on the writer unless its last
    /// fetch took 10 s, and a commit lends the writer for up to a minute: however long a test thread is
    /// preempted mid-fetch on a loaded machine, the next refresh does not go to a reader.
    static var unhurriedLiveQueries: DatabaseOptions {
        var options = DatabaseOptions.default
        options.liveQueryRefreshLimits = .init(perQuery: .seconds(10), perCommit: .seconds(60))
        return options
    }
}
