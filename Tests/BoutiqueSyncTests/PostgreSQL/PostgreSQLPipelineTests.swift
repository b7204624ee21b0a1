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
}
