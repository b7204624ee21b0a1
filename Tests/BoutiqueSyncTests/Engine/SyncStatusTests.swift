import BoutiqueSync
import BoutiqueSyncServer
import Foundation
import Observation
import Testing

/// A model of an app's status bar: re-reads `sync.status` whenever Observation says it changed, the
/// way SwiftUI does (after the change, on the main actor).
@MainActor @Observable
final class SyncStatusBar {
    private(set) var status = SyncStatus()
    private(set) var activities: [SyncStatus.Activity] = []
    private let sync: BoutiqueSync

    init(sync: BoutiqueSync) {
        self.sync = sync
        track()
    }

    private func track() {
        let current = withObservationTracking { sync.status } onChange: { [weak self] in
            Task { @MainActor in self?.track() }
        }
        status = current
        if activities.last != current.activity { activities.append(current.activity) }
    }
}

/// A model whose table name has capitals, as `@Table` names `NoteItem`.
@Table
struct NoteItem: Sendable, Equatable {
    @Column(primaryKey: true) let id: String
    var title: String
}

enum NoteItemSchema {
    static let plan = BoutiqueMigrationPlan {
        BoutiqueMigration("v1_note_item") { conn in
            try conn.execute("CREATE TABLE noteItem(id TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL)")
        }
    }
}

/// What `status` says, when: a status line an app can show.
@MainActor @Suite struct SyncStatusTests {
    func eventually(_ condition: () async throws -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(syncHangDeadline(seconds: 10))
        while ContinuousClock.now < deadline {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return try await condition()
    }

    @Test func pendingCountFollowsLocalCommitsWhetherStartedOrNot() async throws {
        let server = try await makeServer()
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        // Written before sync was ever set up: counted as pending from the start.
        try await database.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES ('n0', 'early')") }
        let sync = try await BoutiqueSync(database: database, tables: ["note"], server: .inProcess(server))
        #expect(sync.status.pendingCount == 1)
        for index in 1...3 {
            try await database.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES (?, 'later')", [.text("n\(index)")]) }
            #expect(sync.status.pendingCount == index + 1, "a local commit while stopped is counted when its write returns")
        }
        #expect(!sync.status.hasSynced)
        let report = try await sync.synchronize()
        #expect(report.pushed == 4)
        #expect(sync.status.pendingCount == 0)
        #expect(sync.status.hasSynced && sync.status.lastSync != nil)
        await database.close()
    }

    /// A write is counted by the time it returns, however fast writes follow each other (the count
    /// from the file is read only now and then), and observers of `status` hear of the count.
    @Test func pendingCountIncludesAWriteAsSoonAsItReturns() async throws {
        let server = try await makeServer()
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let sync = try await BoutiqueSync(database: database, tables: ["note"], server: .inProcess(server))
        let bar = SyncStatusBar(sync: sync)
        for index in 0..<40 {
            try await database.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES (?, 'x')", [.text("n\(index)")]) }
            #expect(sync.status.pendingCount == index + 1)
        }
        // Neither a transaction of sync's own tables nor one that changed nothing is pending.
        try await database.write { conn in try conn.execute("UPDATE note SET title = 'y' WHERE id = 'none'") }
        #expect(sync.status.pendingCount == 40)
        #expect(try await eventually { bar.status.pendingCount == 40 }, "observers hear of the count")
        #expect(try await sync.synchronize().pushed == 40)
        #expect(sync.status.pendingCount == 0)
        try await database.write { conn in try conn.execute("UPDATE note SET title = 'z' WHERE id = 'n3'") }
        #expect(sync.status.pendingCount == 1, "counted from the push's count on")
        #expect(try await eventually { bar.status.pendingCount == 1 })
        await database.close()
    }

    /// The count follows commits without reading every pending transaction again: it must stay exact
    /// when the acknowledged id moves under it (here another sync object on the same file pushes, as
    /// an extension's would) and when hundreds of transactions wait.
    @Test func pendingCountStaysExactWhenAnotherObjectPushesTheSameFile() async throws {
        let server = try await makeServer()
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let shown = try await BoutiqueSync(database: database, tables: ["note"], server: .inProcess(server))
        let pusher = try await BoutiqueSync(database: database, tables: ["note"], server: .inProcess(server))
        for index in 0..<300 {
            try await database.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES (?, 'offline')", [.text("n\(index)")]) }
        }
        #expect(try await eventually { shown.status.pendingCount == 300 })
        #expect(try await pusher.synchronize().pushed == 300)
        try await database.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES ('after', 'online')") }
        #expect(try await eventually { shown.status.pendingCount == 1 }, "the push by the other object is seen at the next commit")
        try await database.write { conn in try conn.execute("UPDATE note SET title = 'again' WHERE id = 'after'") }
        #expect(try await eventually { shown.status.pendingCount == 2 })
        _ = try await shown.synchronize()
        #expect(shown.status.pendingCount == 0)
        await database.close()
    }

    @Test func aStatusBarOnTheMainActorIsNeverLeftStale() async throws {
        let server = try await makeServer()
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let sync = try await BoutiqueSync(
            database: database, tables: ["note"], server: .inProcess(server), options: SyncOptions(pullWait: .seconds(5)))
        let bar = SyncStatusBar(sync: sync)
        sync.start()
        for round in 0..<14 {
            for index in 0..<5 {
                try await database.write { conn in
                    try conn.execute("INSERT INTO note(id, title) VALUES (?, 'x')", [.text("n\(round)-\(index)")])
                }
            }
            #expect(try await eventually { sync.status.pendingCount == 0 && sync.status.activity == .idle })
            #expect(try await eventually { bar.status == sync.status }, "round \(round): the bar shows what sync says")
        }
        await sync.stop()
        // Observation coalesces changes that come faster than the bar re-reads (as SwiftUI does), so
        // which phases the bar saw on the way depends on timing; where it ends does not.
        #expect(try await eventually { bar.status == sync.status })
        #expect(bar.status.activity == .idle, "caught up and waiting in the long poll is idle, not syncing")
        await database.close()
    }

    @Test func aTableNamedWithCapitalsIsPushedRightAfterItsCommit() async throws {
        let server = try await makeServer()
        let a = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: NoteItemSchema.plan)
        let b = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: NoteItemSchema.plan)
        // Long polls of a minute: only a push made at the commit brings the row across within the wait.
        let options = SyncOptions(pullWait: .seconds(60))
        let syncA = try await BoutiqueSync(database: a, tables: [NoteItem.self], server: .inProcess(server), options: options)
        let syncB = try await BoutiqueSync(database: b, tables: [NoteItem.self], server: .inProcess(server), options: options)
        syncA.start()
        syncB.start()
        #expect(try await eventually { syncA.status.hasSynced && syncB.status.hasSynced })
        try await a.write { conn in try NoteItem.insert { NoteItem(id: "i1", title: "Capitals") }.execute(conn) }
        #expect(try await eventually {
            try await b.read { conn in try NoteItem.all.fetchAll(conn) } == [NoteItem(id: "i1", title: "Capitals")]
        })
        await syncA.stop()
        await syncB.stop()
        await a.close()
        await b.close()
    }

    @Test func aPullDoesNotSendADeviceItsOwnChanges() async throws {
        let server = try await makeServer()
        let a = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let b = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let syncA = try await BoutiqueSync(database: a, tables: ["note"], server: .inProcess(server))
        let syncB = try await BoutiqueSync(database: b, tables: ["note"], server: .inProcess(server))
        _ = try await syncA.synchronize()
        _ = try await syncB.synchronize()
        try await a.write { conn in
            for index in 0..<3 { try conn.execute("INSERT INTO note(id, title) VALUES (?, 'a')", [.text("n\(index)")]) }
        }
        let first = try await syncA.synchronize()
        #expect(first.pushed == 3 && first.applied == 0, "its own three notes did not come back")
        var request = PullRequest(replica: await syncA.replicaID, cursor: 0, limit: 100)
        // The device's replica id is bound to its secret: the server answers it only with that.
        request.replicaSecret = try await a.read { conn in
            try conn.fetchAll("SELECT secret FROM boutique_sync_replica_secret").first.flatMap { row in
                if case .text(let secret) = row.values[0] { secret } else { nil }
            }
        }
        let direct = try await server.pull(request, tenant: "default")
        #expect(direct.changes.isEmpty && direct.nextCursor > 0, "the cursor moves past them all the same")
        #expect(try await syncB.synchronize().applied == 3)
        await a.close()
        await b.close()
    }
}
