@testable import BoutiqueDB
import Foundation
import Testing

/// The `stamp` table the worker writes.
@Table("stamp")
struct Stamp: Sendable {
    @Column(primaryKey: true) var id: Int
    var sentAt: Double
}

/// Another process's commits reach live queries and the change feed here.
@Suite struct LiveQueryMultiProcessTests {
    @MainActor
    @Test func anotherProcessesCommitsRefreshLiveQueriesAndTheFeed() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("shared.db").path
        let db = try await BoutiqueDB.open(
            url: URL(fileURLWithPath: path), migrations: StampMigrations.plan, options: .init(multiProcess: true))
        let start = try await db.currentToken

        @MainActor final class Model {
            @LiveQuery<Stamp> var stamps: [Stamp]
            init(_ db: BoutiqueDB) { _stamps = LiveQuery(db, Stamp.all) }
        }
        let model = Model(db)
        try await eventually("first fetch") { !model.$stamps.isLoading }
        #expect(model.$stamps.fetchCount == 1)

        // Commits to a table the query does not read: nothing runs.
        let unrelated = try await Worker.run(["stamp", path, "other", "20"])
        #expect(unrelated.succeeded, "\(unrelated)")
        try await Task.sleep(for: .milliseconds(50))
        // Never once per commit. On a loaded machine the monitor can see a file change whose log rows
        // it cannot attribute to tables yet, and then refetches once rather than miss a change.
        #expect(model.$stamps.fetchCount <= 2, "another process's 20 commits to other tables ran the query \(model.$stamps.fetchCount - 1) times")

        let related = try await Worker.run(["stamp", path, "stamp", "10", "--pause", "0.002"])
        #expect(related.succeeded, "\(related)")
        try await eventually("the other process's rows") { model.stamps.count == 10 }

        let transactions = try await withTimeout(5) {
            var taken: [ChangeTransaction] = []
            for try await transaction in db.changes(since: start) {
                taken.append(transaction)
                if taken.count == 30 { break }
            }
            return taken
        }
        #expect(transactions.map { $0.changes.first?.table } == Array(repeating: "other", count: 20) + Array(repeating: "stamp", count: 10))
        #expect(try await db.currentToken == transactions.last?.token)
        await db.close()
    }
}

/// The plan `BoutiqueTestWorker stamp` opens files with (the same id and statements).
enum StampMigrations {
    static let plan = BoutiqueMigrationPlan {
        BoutiqueMigration("v1_stamps") { conn in
            try conn.execute("CREATE TABLE stamp(id INTEGER PRIMARY KEY, sentAt REAL NOT NULL)")
            try conn.execute("CREATE TABLE other(id INTEGER PRIMARY KEY, sentAt REAL NOT NULL)")
        }
    }
}
