import BoutiqueDB
import BoutiqueSQLite
@testable import BoutiqueSyncServer
import Foundation
import Testing

/// The SQLite store's writer does not copy the log into the file after a large commit: the store's
/// own connection does, beside it, and another tenant's push does not wait for that copy.
@Suite struct SQLiteCheckpointTests {
    static func fileSize(_ url: URL) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    @Test func anotherTenantsPushCommitsWhileALargeCommitIsCopiedIntoTheFile() async throws {
        let url = BoutiqueDB.inMemoryURL()
        let gate = TenantIsolationTests.Gate()
        let store = try await SQLiteSyncStore.open(url: url, beforeCheckpoint: { gate.hold() })
        // The gate opens after a generous while if the test is stuck, so that the store can close; a
        // sanitized run stretches the while (a minute once passed before the calm push was answered).
        let deadline = Task {
            try? await Task.sleep(for: .seconds(syncHangDeadline(seconds: 60)))
            gate.open()
        }
        let autocheckpoint = try await store.database.writeWithoutTransaction { conn in
            try conn.connection.fetchValue("PRAGMA wal_autocheckpoint")
        }
        #expect(autocheckpoint == .integer(0))
        let server = SyncStoreContractTests.server(store)
        let before = Self.fileSize(url)
        // Five rows of 1 MB: more than 1,000 pages of log, which SQLite's own checkpoint would copy
        // into the file inside this commit.
        let large = String(repeating: "x", count: 1_000_000)
        let busy = try await SyncStoreContractTests.push(
            server, [SyncStoreContractTests.transaction(1, keys: (0..<5).map { .text("k\($0)") }, title: large)],
            replica: "busy-device", tenant: "busy")
        #expect(busy.outcome == .accepted, "\(busy.reason ?? "")")
        try await waitUntil("the checkpoint of the large commit is under way") { gate.entered }
        let calm = try await SyncStoreContractTests.push(
            server, [SyncStoreContractTests.transaction(1)], replica: "calm-device", tenant: "calm")
        #expect(calm.outcome == .accepted, "\(calm.reason ?? "")")
        // Nothing of the large commit is in the file yet: the writer left it to the held checkpoint.
        #expect(Self.fileSize(url) < before + 1_000_000)
        gate.open()
        try await waitUntil("the checkpointer copied the log into the file") { Self.fileSize(url) > before + 5_000_000 }
        deadline.cancel()
        let pulled = try await server.pull(PullRequest(replica: "reader", cursor: 0, limit: 10), tenant: "busy")
        #expect(pulled.changes.count == 5)
        await store.close()
    }
}
