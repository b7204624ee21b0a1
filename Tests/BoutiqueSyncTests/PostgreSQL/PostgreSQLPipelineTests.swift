import BoutiqueSync
@testable import BoutiqueSyncServer
import Foundation
import Testing

/// A transaction's writes wait to be sent with its next read or its commit, in one pipeline, and
/// statements are prepared once per connection: none of it may change what commits.
@Suite struct PostgreSQLPipelineTests {
    static func count(_ worker: PostgreSQLWorker) async throws -> Int64 {
        try await worker.transaction { connection in try connection.execute("SELECT count(*) FROM item").int64(0, 0) }
    }

    @Test func aDeferredWriteThatFailsFailsItsTransactionAndNothingOfItCommits() async throws {
        try await PostgreSQLTestDatabase.withFresh { url in
            let worker = PostgreSQLWorker(url: url)
            try await worker.transaction { connection in _ = try connection.execute("CREATE TABLE item(id int8 PRIMARY KEY)") }
            await #expect {
                try await worker.transaction { connection in
                    try connection.executeLater("INSERT INTO item(id) VALUES ($1)", [.int8(1)])
                    try connection.executeLater("INSERT INTO item(id) VALUES ($1)", [.int8(1)])
                    try connection.executeLater("INSERT INTO item(id) VALUES ($1)", [.int8(2)])
                }
            } throws: { error in
                "\(error)".contains("23505") && "\(error)".contains("INSERT INTO item")
            }
            #expect(try await Self.count(worker) == 0, "the first insert, sent before the failing one, was rolled back")
            // A read that follows deferred writes carries them, and sees them.
            let seen = try await worker.transaction { connection in
                try connection.executeLater("INSERT INTO item(id) VALUES ($1)", [.int8(3)])
                return try connection.execute("SELECT count(*) FROM item WHERE id = $1", [.int8(3)]).int64(0, 0)
            }
            #expect(seen == 1)
            #expect(try await Self.count(worker) == 1)
            await worker.close()
        }
    }

    @Test func aBodyThatThrowsSendsNoneOfItsDeferredWrites() async throws {
        struct Abandoned: Error {}
        try await PostgreSQLTestDatabase.withFresh { url in
            let worker = PostgreSQLWorker(url: url)
            try await worker.transaction { connection in _ = try connection.execute("CREATE TABLE item(id int8 PRIMARY KEY)") }
            await #expect(throws: Abandoned.self) {
                try await worker.transaction { connection in
                    try connection.executeLater("INSERT INTO item(id) VALUES ($1)", [.int8(1)])
                    throw Abandoned()
                }
            }
            #expect(try await Self.count(worker) == 0)
            await worker.close()
        }
    }

    @Test func moreWritesThanAPipelineHoldsAllCommit() async throws {
        try await PostgreSQLTestDatabase.withFresh { url in
            let worker = PostgreSQLWorker(url: url)
            try await worker.transaction { connection in _ = try connection.execute("CREATE TABLE item(id int8 PRIMARY KEY)") }
            let writes = PostgreSQLConnection.deferredLimit * 5 + 3
            try await worker.transaction { connection in
                for id in 0..<writes { try connection.executeLater("INSERT INTO item(id) VALUES ($1)", [.int8(Int64(id))]) }
            }
            #expect(try await Self.count(worker) == Int64(writes))
            await worker.close()
        }
    }

    @Test func theSameTextBoundWithOtherTypesIsAnotherPreparedStatement() async throws {
        try await PostgreSQLTestDatabase.withFresh { url in
            let worker = PostgreSQLWorker(url: url)
            let types = try await worker.transaction { connection in
                try [PostgreSQLValue.int8(7), .int4(7), .text("7"), .int8(8)].map { value throws(BoutiqueError) in
                    try connection.execute("SELECT pg_typeof($1)::text", [value]).string(0, 0)
                }
            }
            #expect(types == ["bigint", "integer", "text", "bigint"])
            await worker.close()
        }
    }

    @Test func aStatementThatFailsToPrepareIsNotTakenForPrepared() async throws {
        try await PostgreSQLTestDatabase.withFresh { url in
            let worker = PostgreSQLWorker(url: url)
            for _ in 0..<2 {
                await #expect(throws: BoutiqueError.self) {
                    try await worker.transaction { connection in _ = try connection.execute("SELECT * FROM missing WHERE id = $1", [.int8(1)]) }
                }
            }
            try await worker.transaction { connection in _ = try connection.execute("CREATE TABLE missing(id int8)") }
            let found = try await worker.transaction { connection in
                try connection.execute("SELECT count(*) FROM missing WHERE id = $1", [.int8(1)]).int64(0, 0)
            }
            #expect(found == 0)
            await worker.close()
        }
    }

    /// A push larger than a batch, changing some rows several times, leaves the same rows and log as
    /// on the SQLite store, whose statements go one by one.
    @Test func aLargePushWithRepeatedRowsLeavesWhatTheSQLiteStoreLeaves() async throws {
        try await PostgreSQLTestDatabase.withFresh { url in
            let postgres = try await PostgreSQLSyncStore.open(url: url)
            let sqlite = try await SQLiteSyncStore.open(url: BoutiqueDB.inMemoryURL())
            let wall: UInt64 = 1_900_000_000_000
            var transactions: [SyncTransaction] = []
            let rows = PostgreSQLStoreTransaction.batchLimit + 500
            for id in 1...rows + 300 {
                // The last 300 transactions change rows already changed earlier in the push.
                let key = DatabaseValue.text("k\(id <= rows ? id : (id - rows) * 7)")
                let stamp = SyncStamp(time: HybridTimestamp(milliseconds: wall - 10_000 + UInt64(id)), replica: "writer")
                let kind: SyncChange.Kind = id <= rows ? .insert : (id % 2 == 0 ? .delete : .update)
                let columns = kind == .delete ? [] : [SyncColumnValue(name: "title", value: .text("t\(id)"))]
                transactions.append(SyncTransaction(id: Int64(id), stamp: stamp, changes: [
                    SyncChange(table: "note", key: key, kind: kind, columns: columns, stamp: stamp),
                ]))
            }
            var results: [([SnapshotRow], [ServerChange])] = []
            for store in [postgres as any SyncStore, sqlite] {
                let server = SyncServer(store: store, maximumClockSkewMilliseconds: 60_000, wallClock: { wall })
                let pushed = try await server.push(
                    PushRequest(replica: "writer", baseTransactionID: 0, baseDigest: nil, schemaVersion: 1, transactions: transactions),
                    tenant: "t")
                #expect(pushed.outcome == .accepted && pushed.appliedThrough == Int64(transactions.count))
                let snapshot = try await server.snapshot(SnapshotRequest(replica: "reader", after: nil, limit: 10_000), tenant: "t")
                let log = try await server.pull(PullRequest(replica: "reader", cursor: 0, limit: 10_000), tenant: "t")
                results.append((snapshot.rows, log.changes))
            }
            #expect(results[0].0.count == rows && results[0].1.count == transactions.count)
            #expect(results[0].0 == results[1].0, "the same rows")
            #expect(results[0].1 == results[1].1, "the same log")
            await postgres.close()
            await sqlite.close()
        }
    }
}
