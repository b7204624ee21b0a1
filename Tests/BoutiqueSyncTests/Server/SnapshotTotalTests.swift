import BoutiqueSync
import BoutiqueSyncServer
import Foundation
import Testing

extension SyncStoreContractTests {
    /// The first snapshot page (and a page asked with `includeTotal`) counts the tenant's rows,
    /// tombstones included: the length of the whole snapshot, for a bootstrap's progress.
    @Test(arguments: StoreKind.allCases)
    func theFirstSnapshotPageCountsTheTenantsRows(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let server = Self.server(store)
            let keys: [DatabaseValue] = (1...5).map { .text("k\($0)") }
            let inserted = try await Self.push(server, [Self.transaction(1, keys: keys)])
            let deleted = try await Self.push(
                server, [Self.transaction(2, at: Self.wall + 1, keys: [.text("k3")], kind: .delete)], base: 1, digest: inserted.digest)
            #expect(deleted.outcome == .accepted)
            _ = try await Self.push(server, [Self.transaction(1, keys: [.text("x")])], tenant: "other")
            let first = try await server.snapshot(SnapshotRequest(replica: "r", after: nil, limit: 2), tenant: "t")
            #expect(first.totalRows == 5, "the tombstone is a row of the snapshot")
            let second = try await server.snapshot(SnapshotRequest(replica: "r", after: first.next, limit: 2), tenant: "t")
            #expect(second.totalRows == nil, "later pages do not count again")
            let resumed = try await server.snapshot(
                SnapshotRequest(replica: "r", after: first.next, limit: 2, includeTotal: true), tenant: "t")
            #expect(resumed.totalRows == 5)
            #expect(try await server.snapshot(SnapshotRequest(replica: "r", after: nil, limit: 2), tenant: "other").totalRows == 1)
        }
    }
}
