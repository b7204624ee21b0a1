import BoutiqueSync
@testable import BoutiqueSyncServer
import Foundation
import Testing

/// The PostgreSQL store makes and upgrades its own tables: once, whoever opens first, and never past
/// what it knows.
@Suite struct PostgreSQLSchemaTests {
    /// The error `open` threw, `nil` when it opened (the store is closed again).
    static func openingError(_ url: String) async -> BoutiqueError? {
        do {
            let store = try await PostgreSQLSyncStore.open(url: url)
            await store.close()
            return nil
        } catch {
            return error as? BoutiqueError ?? .invalidArgument("not a BoutiqueError: \(error)")
        }
    }

    static func appliedVersions(_ url: String) async throws -> [Int64] {
        try await PostgreSQLTestDatabase.integers("SELECT version::int8 FROM boutique_sync_server_schema ORDER BY version", on: url)
    }

    @Test func storesOpeningTogetherOnANewDatabaseCreateTheSchemaOnce() async throws {
        try await PostgreSQLTestDatabase.withFresh { url in
            let stores = try await withThrowingTaskGroup(of: PostgreSQLSyncStore.self) { group in
                for _ in 0..<4 { group.addTask { try await PostgreSQLSyncStore.open(url: url, connections: 1) } }
                var stores: [PostgreSQLSyncStore] = []
                for try await store in group { stores.append(store) }
                return stores
            }
            #expect(stores.count == 4)
            #expect(try await Self.appliedVersions(url) == Array(1...Int64(PostgreSQLStoreSchema.version)))
            _ = try await stores[0].transaction(tenant: "t") { store in
                try store.appendChange(
                    SyncChange(table: "note", key: .text("k"), kind: .delete, columns: [], stamp: SyncStamp(time: .zero, replica: "w")),
                    origin: "r", batch: nil)
            }
            for store in stores { await store.close() }

            // Reopened, the data is there and nothing is applied twice.
            let reopened = try await PostgreSQLSyncStore.open(url: url)
            #expect(try await reopened.transaction(tenant: "t") { store in try store.latestSequence() } == 1)
            await reopened.close()
            #expect(try await Self.appliedVersions(url) == Array(1...Int64(PostgreSQLStoreSchema.version)))
        }
    }

    @Test func aDatabaseANewerServerUpgradedIsRefusedAndLeftAlone() async throws {
        try await PostgreSQLTestDatabase.withFresh { url in
            #expect(await Self.openingError(url) == nil)
            let newer = Int32(PostgreSQLStoreSchema.version + 1)
            try await PostgreSQLTestDatabase.execute(
                "INSERT INTO boutique_sync_server_schema(version, name) VALUES ($1, 'boutique_sync_server_from_the_future')",
                [.int4(newer)], on: url)
            let error = await Self.openingError(url)
            let known = PostgreSQLStoreSchema.migrations.map(\.name)
            #expect(error == .migrationHistoryMismatch(applied: known + ["boutique_sync_server_from_the_future"], planned: known))
            #expect(try await Self.appliedVersions(url).last == Int64(newer), "the database was left as it was")
        }
    }

    @Test func aVersionOneDatabaseIsUpgradedKeepingItsData() async throws {
        try await PostgreSQLTestDatabase.withFresh { url in
            let stamp = SyncStamp(time: HybridTimestamp(milliseconds: 1_900_000_000_000), replica: "w")
            let change = SyncChange(
                table: "note", key: .text("k"), kind: .insert, columns: [SyncColumnValue(name: "title", value: .text("kept"))], stamp: stamp)
            let state = RowRegister(
                existence: ExistenceRegister(exists: true, stamp: stamp), lastDelete: nil,
                cells: ["title": CellRegister(value: .text("kept"), stamp: stamp)])
            // The tables a version-1 server made, and a row, a logged change and a replica it wrote.
            let worker = PostgreSQLWorker(url: url)
            try await worker.transaction { connection in
                try connection.execute("""
                    CREATE TABLE boutique_sync_server_schema(
                        version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())
                    """)
                let first = PostgreSQLStoreSchema.migrations[0]
                for statement in first.statements { try connection.execute(statement) }
                try connection.execute("INSERT INTO boutique_sync_server_schema(version, name) VALUES (1, $1)", [.text(first.name)])
                try connection.execute("INSERT INTO boutique_sync_server_tenant VALUES ('t', 2, 0, 0)")
                try connection.execute(
                    "INSERT INTO boutique_sync_server_row VALUES ('t', $1, $2, $3, true, 1)",
                    [.bytea(Array("note".utf8)), .bytea(PostgreSQLKey.encode(.text("k"))), .bytea(state.record())])
                try connection.execute(
                    "INSERT INTO boutique_sync_server_log VALUES ('t', 1, 1, $1, $2, $3, $4)",
                    [.bytea(Array("note".utf8)), .bytea(PostgreSQLKey.encode(.text("k"))), .bytea(ChangeRecord.encode(change)),
                     .bytea(Array("r".utf8))])
                try connection.execute("INSERT INTO boutique_sync_server_replica VALUES ('t', $1, 1, NULL, 1, 0, false)", [.bytea(Array("r".utf8))])
            }
            await worker.close()
            #expect(try await Self.appliedVersions(url) == [1])

            let store = try await PostgreSQLSyncStore.open(url: url)
            #expect(try await Self.appliedVersions(url) == Array(1...Int64(PostgreSQLStoreSchema.version)))
            let logged = LoggedChange(entry: ServerChange(sequence: 1, change: change), batch: 1, origin: "r")
            let read = try await store.transaction(tenant: "t") { store in
                (try store.rowState(table: "note", key: .text("k")), try store.placement(table: "note", key: .text("k")),
                 try store.rows(in: .common, after: nil, limit: 10), try store.rowCount(in: [.common]),
                 try store.changes(after: 0, through: 1, visibleIn: [.common], batch: nil), try store.changes(after: 0, limit: 10),
                 try store.replica("r")?.cursor)
            }
            #expect(read.0 == state && read.1 == .common, "rows a version-1 server wrote are in the common space")
            #expect(read.2 == [SnapshotRow(table: "note", key: .text("k"), state: state)] && read.3 == 1)
            #expect(read.4 == [logged] && read.5 == [logged], "so are its logged changes")
            #expect(read.6 == 1)

            // The upgraded tables take spaces and members, and carry on the tenant's sequence.
            let space = SyncSpace.shared(table: "note", key: .text("k"))
            let upgraded = try await store.transaction(tenant: "t") { store in
                try store.setPlacement(RowPlacement(space: space), table: "note", key: .text("k"))
                let sequence = try store.reserveSequence()
                try store.setMember("ana", role: .owner, in: space, sequence: sequence)
                return (sequence, try store.placement(table: "note", key: .text("k")), try store.memberships(of: "ana", at: nil))
            }
            #expect(upgraded.0 == 2 && upgraded.1 == RowPlacement(space: space) && upgraded.2 == [space: .owner])
            await store.close()
        }
    }

    @Test func anUnreachableServerIsAClearError() async throws {
        guard let server = PostgreSQLTestDatabase.serverURL(test: #function), var components = URLComponents(string: server) else { return }
        // Port 1 on the same host: nothing listens there.
        components.port = 1
        let error = await Self.openingError(components.string ?? server)
        guard case .syncUnavailable(let reason)? = error else {
            Issue.record("expected syncUnavailable, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("cannot connect to PostgreSQL"), "\(reason)")
    }

    @Test func aStoreRefusesTenantsPostgreSQLCannotHoldAndWorkAfterClose() async throws {
        try await PostgreSQLTestDatabase.withFresh { url in
            let store = try await PostgreSQLSyncStore.open(url: url)
            let nul = await Self.transactionError(store, tenant: "a\u{0}b")
            #expect(nul.map { if case .invalidArgument = $0 { true } else { false } } == true, "\(String(describing: nul))")
            #expect(await Self.transactionError(store, tenant: "fine") == nil)
            await store.close()
            #expect(await Self.transactionError(store, tenant: "fine") == .databaseClosed)
        }
    }

    @Test func aStatementThatFailedInsideATransactionIsNeverPassedOffAsACommit() async throws {
        try await PostgreSQLTestDatabase.withFresh { url in
            try await PostgreSQLTestDatabase.execute("CREATE TABLE scratch(n int8 NOT NULL)", on: url)
            let worker = PostgreSQLWorker(url: url)
            let failure: BoutiqueError?
            do {
                try await worker.transaction { connection in
                    try connection.execute("INSERT INTO scratch VALUES (1)")
                    // A body that swallows a statement's error: PostgreSQL then answers COMMIT by
                    // rolling back, which must not pass for a commit.
                    _ = try? connection.execute("SELECT 1 / $1", [.int8(0)])
                }
                failure = nil
            } catch {
                failure = error as? BoutiqueError
            }
            guard case .syncUnavailable(let reason)? = failure else {
                Issue.record("expected syncUnavailable, got \(String(describing: failure))")
                return
            }
            #expect(reason.contains("rolled back"))
            #expect(try await PostgreSQLTestDatabase.integers("SELECT count(*) FROM scratch", on: url) == [0])
            // The connection is usable again.
            let count = try await worker.transaction { connection in try connection.execute("SELECT count(*) FROM scratch").int64(0, 0) }
            #expect(count == 0)
            await worker.close()
        }
    }

    static func transactionError(
        _ store: PostgreSQLSyncStore, tenant: String, _ body: @escaping @Sendable (any SyncStoreTransaction) throws -> Void = { _ in }
    ) async -> BoutiqueError? {
        do {
            try await store.transaction(tenant: tenant, body)
            return nil
        } catch {
            return error as? BoutiqueError ?? .invalidArgument("not a BoutiqueError: \(error)")
        }
    }

    /// The store's history stays across instances and restarts, and changes when the operator marks
    /// the store restored (``PostgreSQLSyncStore/startNewHistory()``) or when its row is written
    /// again (as a restore writes it), while its identity stays.
    @Test func theHistoryStaysUntilTheStoreIsRestored() async throws {
        try await PostgreSQLTestDatabase.withFresh { url in
            let first = try await PostgreSQLSyncStore.open(url: url)
            let history = try #require(try await first.history())
            let identity = try await first.identity()
            let second = try await PostgreSQLSyncStore.open(url: url)
            #expect(try await second.history() == history, "every instance answers with the same history")
            await second.close()
            await first.close()
            let reopened = try await PostgreSQLSyncStore.open(url: url)
            #expect(try await reopened.history() == history, "a restart keeps it")

            try await reopened.startNewHistory()
            let marked = try #require(try await reopened.history())
            #expect(marked != history)
            // The row written again with the id it had (as a restore writes a dump's rows): another history.
            try await PostgreSQLTestDatabase.execute("UPDATE boutique_sync_server_identity SET history = history", on: url)
            let rewritten = try #require(try await reopened.history())
            #expect(rewritten != marked && rewritten.hasPrefix(String(marked.prefix { $0 != "@" })), "the same id, written elsewhere: \(rewritten)")
            #expect(try await reopened.identity() == identity, "the same server")
            await reopened.close()
        }
    }
}
