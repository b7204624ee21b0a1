import BoutiqueSync
import BoutiqueSyncServer
import Foundation
import Testing

extension SyncStoreContractTests {
    /// A page asked for packed holds, once unpacked, exactly the rows of the same page in JSON, page
    /// after page; every row comes once, in (table, key) order.
    @Test(arguments: StoreKind.allCases)
    func packedPagesHoldTheSameRowsAsJSONPages(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let server = Self.server(store)
            let keys: [DatabaseValue] = (0..<23).map { .text(String(format: "k%02d", $0)) }
            let inserted = try await Self.push(server, [Self.transaction(1, keys: keys)])
            let deleted = try await Self.push(
                server, [Self.transaction(2, at: Self.wall + 1, keys: [.text("k05")], kind: .delete)], base: 1, digest: inserted.digest)
            #expect(deleted.outcome == .accepted)
            var after: SnapshotPosition?
            var seen: [DatabaseValue] = []
            repeat {
                let json = try await server.snapshot(SnapshotRequest(replica: "r", after: after, limit: 5), tenant: "t")
                var packed = try await server.snapshot(SnapshotRequest(replica: "r", after: after, limit: 5, packsRows: true), tenant: "t")
                #expect(packed.rows.isEmpty && packed.packedRows != nil && json.packedRows == nil)
                try packed.unpackRows()
                #expect(packed.rows == json.rows && packed.next == json.next && packed.totalRows == json.totalRows)
                seen += json.rows.map(\.key)
                after = json.next
            } while after != nil
            #expect(seen == keys, "every row once, in key order, the tombstone included")
        }
    }
}
