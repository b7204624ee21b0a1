import BoutiqueSync
@testable import BoutiqueSyncServer
import Foundation
import Testing

/// A pull reads: it writes nothing to the store, whoever asks, and garbage collection still waits for
/// the replicas that pull.
@Suite struct PullWritesNothingTests {
    /// The row count of every table of the store, by name, and the replicas' records.
    static func contents(of store: any SyncStore) async throws -> ([String: Int64], [ReplicaRecord]) {
        try await store.transaction(tenant: "t") { transaction in
            var counts: [String: Int64] = [:]
            if let sqlite = transaction as? SQLiteStoreTransaction {
                let tables = try sqlite.rows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name", [])
                for case .text(let name) in tables.map({ $0[0] }) where name.hasPrefix("boutique_sync_server") {
                    // The name comes from sqlite_master, not from a request.
                    if case .integer(let count)? = try sqlite.rows("SELECT count(*) FROM \"\(name)\"", []).first?.first { counts[name] = count }
                }
            } else if let postgreSQL = transaction as? PostgreSQLStoreTransaction {
                let tables = try postgreSQL.connection.execute(
                    "SELECT tablename::text FROM pg_tables WHERE tablename LIKE 'boutique_sync_server%' ORDER BY 1")
                for row in 0..<tables.rowCount {
                    let name = try tables.string(row, 0)
                    counts[name] = try postgreSQL.connection.execute("SELECT count(*)::int8 FROM \"\(name)\"").int64(0, 0)
                }
            }
            return (counts, try transaction.replicas())
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aPullOfAnUnknownReplicaLeavesTheStoreAsItWas(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let server = SyncStoreContractTests.server(store)
            _ = try await SyncStoreContractTests.push(server, [SyncStoreContractTests.transaction(1)], replica: "writer")
            let before = try await Self.contents(of: store)
            #expect(before.0.count >= 5 && before.1.count == 1)
            for index in 0..<5 {
                let pulled = try await server.pull(PullRequest(replica: "stranger-\(index)", cursor: 0, limit: 10), tenant: "t")
                #expect(pulled.outcome == .changes && pulled.changes.count == 1)
            }
            _ = try await server.snapshot(SnapshotRequest(replica: "stranger", after: nil, limit: 10), tenant: "t")
            try await server.writePullCursors()
            let after = try await Self.contents(of: store)
            #expect(after.0 == before.0, "no table gained or lost a row")
            #expect(after.1 == before.1, "no replica recorded or changed")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aKnownReplicasPullIsWrittenLaterAndCollectionWaitsForIt(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let server = SyncStoreContractTests.server(store)
            let insert = SyncStoreContractTests.transaction(1)
            let delete = SyncStoreContractTests.transaction(2, at: SyncStoreContractTests.wall + 1, kind: .delete)
            _ = try await SyncStoreContractTests.push(server, [], replica: "reader")
            _ = try await SyncStoreContractTests.push(server, [insert, delete], replica: "writer")
            _ = try await server.pull(PullRequest(replica: "writer", cursor: 0, limit: 10), tenant: "t")
            let recorded = try await Self.contents(of: store).1
            _ = try await server.pull(PullRequest(replica: "reader", cursor: 0, limit: 1), tenant: "t")
            #expect(try await Self.contents(of: store).1 == recorded, "the pull itself wrote nothing")
            // The reader pulled through 1 only: the delete at 2 stays.
            let first = try await server.collectGarbage(tenant: "t")
            #expect(first.horizon == 1 && first.tombstonesRemoved == 0)
            #expect(try await Self.contents(of: store).1.first { $0.replica == "reader" }?.cursor == 1, "written by the collection")
            _ = try await server.pull(PullRequest(replica: "reader", cursor: 1, limit: 10), tenant: "t")
            try await server.writePullCursors()
            #expect(try await Self.contents(of: store).1.first { $0.replica == "reader" }?.cursor == 2)
            let second = try await server.collectGarbage(tenant: "t")
            #expect(second.horizon == 2 && second.tombstonesRemoved == 1)
        }
    }
}
