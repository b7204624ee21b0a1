import BoutiqueSync
import BoutiqueSyncServer
import Foundation
import Testing

/// What every ``SyncStore`` must do the same way, run against each store: the server's logic over it
/// (the important cases of `SyncServerTests`), and the store's own methods where the server relies
/// on a detail (whole batches, key order, exact unsigned values).
///
/// The PostgreSQL runs need `BOUTIQUE_TEST_POSTGRES_URL`; without it they print that they did not run.
@Suite struct SyncStoreContractTests {
    static let wall: UInt64 = 1_900_000_000_000

    static func server(_ store: any SyncStore, resolver: SyncResolver? = nil) -> SyncServer {
        SyncServer(store: store, resolver: resolver, maximumClockSkewMilliseconds: 60_000, wallClock: { wall })
    }

    static func transaction(_ id: Int64, at time: UInt64 = wall, table: String = "note", keys: [DatabaseValue] = [.text("k")],
                            kind: SyncChange.Kind = .insert, title: String = "t") -> SyncTransaction {
        let stamp = SyncStamp(time: HybridTimestamp(milliseconds: time), replica: "writer")
        let columns = kind == .delete ? [] : [SyncColumnValue(name: "title", value: .text(title))]
        return SyncTransaction(id: id, stamp: stamp, changes: keys.map { key in
            SyncChange(table: table, key: key, kind: kind, columns: columns, stamp: stamp)
        })
    }

    static func push(_ server: SyncServer, _ transactions: [SyncTransaction], replica: String = "r", tenant: String = "t",
                     base: Int64 = 0, digest: UInt64? = nil) async throws -> PushResponse {
        try await server.push(
            PushRequest(replica: replica, baseTransactionID: base, baseDigest: digest, schemaVersion: 1, transactions: transactions),
            tenant: tenant)
    }

    static func log(_ server: SyncServer, tenant: String = "t") async throws -> [ServerChange] {
        try await server.pull(PullRequest(replica: "reader", cursor: 0, limit: 1_000), tenant: tenant).changes
    }

    static func change(_ table: String = "note", key: DatabaseValue = .text("k"), title: String = "t") -> SyncChange {
        let stamp = SyncStamp(time: HybridTimestamp(milliseconds: wall), replica: "writer")
        return SyncChange(table: table, key: key, kind: .insert, columns: [SyncColumnValue(name: "title", value: .text(title))], stamp: stamp)
    }

    // MARK: The server's logic

    @Test(arguments: StoreKind.allCases)
    func aRetriedPushChangesNothing(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let server = Self.server(store)
            let transactions = [Self.transaction(5), Self.transaction(9, keys: [.text("j")])]
            let first = try await Self.push(server, transactions)
            let again = try await Self.push(server, transactions)
            #expect(first.outcome == .accepted && first.appliedThrough == 9)
            #expect(again.outcome == .accepted && again.appliedThrough == 9 && again.digest == first.digest)
            #expect(try await Self.log(server).count == 2, "the retry applied nothing")
        }
    }

    /// `boutique_log_entries`: every tenant's entries, fewer once collected.
    @Test(arguments: StoreKind.allCases)
    func theLogEntryCountFollowsPushesAndCollection(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let server = Self.server(store)
            #expect(try await server.logEntryCount() == 0)
            _ = try await Self.push(server, [Self.transaction(1), Self.transaction(2, keys: [.text("j")])], tenant: "a")
            _ = try await Self.push(server, [Self.transaction(1)], tenant: "b")
            #expect(try await server.logEntryCount() == 3)
            // The one device of tenant a says it has both its entries: collection drops them.
            _ = try await server.pull(PullRequest(replica: "r", cursor: 2, limit: 10), tenant: "a")
            #expect(try await server.collectGarbage(tenant: "a").horizon == 2)
            #expect(try await server.logEntryCount() == 1)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func anotherHistoryUnderTheSameIdIsAMismatch(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let server = Self.server(store)
            _ = try await Self.push(server, [Self.transaction(5)])
            let answer = try await Self.push(server, [Self.transaction(5, title: "other")])
            #expect(answer.outcome == .mismatch && answer.appliedThrough == 5)
            #expect(try await Self.log(server).count == 1, "nothing of the mismatched push was applied")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func refusedPushesChangeNothingAndEveryReplyCarriesTheServersTime(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let server = Self.server(store)
            let refused = try await Self.push(server, [Self.transaction(1, at: Self.wall + 120_000)])
            #expect(refused.outcome == .refused && refused.reason?.contains("clock") == true)
            #expect(refused.serverTime.milliseconds == Self.wall)
            #expect(try await Self.log(server).isEmpty)
            let snapshot = try await server.snapshot(SnapshotRequest(replica: "r", after: nil, limit: 10), tenant: "t")
            #expect(snapshot.serverTime.milliseconds == Self.wall && snapshot.rows.isEmpty)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func hostileNamesAreStoredAsData(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let server = Self.server(store)
            let tables = ["x\"); DROP TABLE t; --", "boutique_sync_server_log'; DROP TABLE boutique_sync_server_row; --", "$1", "nul\u{0}inside"]
            let key = DatabaseValue.text("'); DELETE FROM boutique_sync_server_replica; --")
            let transactions = tables.enumerated().map { index, table in Self.transaction(Int64(index + 1), table: table, keys: [key]) }
            let accepted = try await Self.push(server, transactions)
            #expect(accepted.outcome == .accepted, "\(accepted.reason ?? "")")
            let log = try await Self.log(server)
            // Lowercased, as every pushed table name is; otherwise as they were sent.
            #expect(log.map(\.change.table) == tables.map { $0.lowercased() })
            #expect(log.allSatisfy { $0.change.key == key })
            let snapshot = try await server.snapshot(SnapshotRequest(replica: "r", after: nil, limit: 10), tenant: "t")
            #expect(Set(snapshot.rows.map(\.table)) == Set(tables.map { $0.lowercased() }))
            // Every table of the store is still there and works.
            _ = try await Self.push(server, [Self.transaction(9)], replica: "other")
            #expect(try await Self.log(server).count == tables.count + 1)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func tenantsNeverSeeEachOthersRows(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let server = Self.server(store)
            _ = try await Self.push(server, [Self.transaction(1)], tenant: "acme")
            #expect(try await Self.log(server, tenant: "acme").count == 1)
            #expect(try await Self.log(server, tenant: "globex").isEmpty)
            let snapshot = try await server.snapshot(SnapshotRequest(replica: "r", after: nil, limit: 10), tenant: "globex")
            #expect(snapshot.rows.isEmpty)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func theResolversAnswerIsANewChangeStampedByTheServer(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let server = Self.server(store, resolver: { conflict in
                guard case .text(let title)? = conflict.merged.visibleValues["title"], title != title.uppercased() else { return nil }
                return [SyncColumnValue(name: "title", value: .text(title.uppercased()))]
            })
            _ = try await Self.push(server, [Self.transaction(1, title: "quiet")])
            let log = try await Self.log(server)
            #expect(log.count == 2)
            #expect(log.last?.change.stamp.replica == SyncServer.serverReplica)
            #expect(log.last?.change.columns.first?.value == .text("QUIET"))
        }
    }

    @Test(arguments: StoreKind.allCases)
    func tombstonesAndTheLogGoOnceEveryActiveReplicaPulledPastThem(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let server = Self.server(store)
            // A device's first push of a session (empty when it has nothing to push) makes it known: only
            // known replicas' pulls count for collection.
            _ = try await Self.push(server, [], replica: "b")
            _ = try await Self.push(server, [Self.transaction(1), Self.transaction(2, at: Self.wall + 1, kind: .delete)], replica: "a")
            _ = try await server.pull(PullRequest(replica: "a", cursor: 0, limit: 10), tenant: "t")
            _ = try await server.pull(PullRequest(replica: "b", cursor: 0, limit: 1), tenant: "t")
            #expect(try await server.collectGarbage(tenant: "t").tombstonesRemoved == 0, "b has not pulled the delete yet")
            _ = try await server.pull(PullRequest(replica: "b", cursor: 1, limit: 10), tenant: "t")
            let report = try await server.collectGarbage(tenant: "t")
            #expect(report.tombstonesRemoved == 1 && report.horizon == 2)
            let horizon = try await store.transaction(tenant: "t") { store in (try store.logHorizon(), try store.changes(after: 0, limit: 10).count) }
            #expect(horizon == (2, 0), "the log was pruned through the horizon")
            let stale = try await server.pull(PullRequest(replica: "c", cursor: 0, limit: 10), tenant: "t")
            #expect(stale.outcome == .resetRequired, "a cursor the log no longer reaches must bootstrap again")
            let fresh = try await server.pull(PullRequest(replica: "c", cursor: 2, limit: 10), tenant: "t")
            #expect(fresh.outcome == .changes && fresh.changes.isEmpty)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func pushPullAndSnapshotRoundTrip(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let server = Self.server(store)
            let keys: [DatabaseValue] = [.text("n1"), .blob([0, 1, 2]), .text("n2")]
            _ = try await Self.push(server, [Self.transaction(1, keys: keys, title: "first"), Self.transaction(2, keys: [.text("n1")], title: "second")])
            let pulled = try await Self.log(server)
            #expect(pulled.map(\.sequence) == [1, 2, 3, 4])
            #expect(pulled.last?.change.columns == [SyncColumnValue(name: "title", value: .text("second"))])
            var rows: [SnapshotRow] = []
            var after: SnapshotPosition?
            repeat {
                let page = try await server.snapshot(SnapshotRequest(replica: "new", after: after, limit: 2), tenant: "t")
                #expect(page.cursor == 4)
                rows += page.rows
                after = page.next
            } while after != nil
            #expect(rows.map(\.key) == [.text("n1"), .text("n2"), .blob([0, 1, 2])], "text keys before blob keys")
            #expect(rows.first?.state.visibleValues["title"] == .text("second"))
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aPullEndsWithAWholeBatch(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let server = Self.server(store)
            let first = Self.transaction(1, keys: [.text("a"), .text("b"), .text("c")])
            let second = Self.transaction(2, keys: [.text("d"), .text("e")])
            _ = try await Self.push(server, [first, second])
            let one = try await server.pull(PullRequest(replica: "p", cursor: 0, limit: 1), tenant: "t")
            #expect(one.changes.map(\.sequence) == [1, 2, 3] && one.nextCursor == 3 && one.hasMore)
            let four = try await server.pull(PullRequest(replica: "p", cursor: 0, limit: 4), tenant: "t")
            #expect(four.changes.map(\.sequence) == [1, 2, 3, 4, 5] && !four.hasMore)
            let logged = try await store.transaction(tenant: "t") { store in
                (try store.changes(after: 3, limit: 1), try store.changes(after: 0, limit: 3), try store.changes(after: 5, limit: 10))
            }
            #expect(logged.0.map(\.entry.sequence) == [4, 5] && logged.0.allSatisfy { $0.batch == 4 && $0.origin == "r" })
            #expect(logged.1.map(\.batch) == [1, 1, 1])
            #expect(logged.2.isEmpty)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func countingAPageReadsABoundedPartOfALargeTransaction(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let server = Self.server(store)
            let small = Self.transaction(1, keys: [.text("a"), .text("b")])
            let large = Self.transaction(2, keys: (0..<1_200).map { .text(String(format: "n%04d", $0)) })
            _ = try await Self.push(server, [small, large])
            // Each page of the large transaction is counted from a bounded part of it, not its whole rest.
            let counted = try await store.transaction(tenant: "t") { store in try store.batchSizes(after: 0, limit: 10) }
            #expect(counted.map(\.batch) == [1, 3])
            #expect(counted.first?.changes == 2)
            #expect(counted.reduce(0) { $0 + $1.changes } <= LogBatchSize.countedChanges(limit: 10), "\(counted)")
            let inside = try await store.transaction(tenant: "t") { store in try store.batchSizes(after: 600, limit: 10) }
            #expect(inside.map(\.batch) == [3] && inside.reduce(0) { $0 + $1.changes } <= LogBatchSize.countedChanges(limit: 10))

            // The pages: the small transaction alone (the large one does not ride along whole), then the
            // large one in shares, every change once and in order.
            var pages: [[Int64]] = []
            var cursor: Int64 = 0
            while true {
                let page = try await server.pull(PullRequest(replica: "p", cursor: cursor, limit: 10), tenant: "t")
                pages.append(page.changes.map(\.sequence))
                cursor = page.nextCursor
                guard page.hasMore, pages.count < 100 else { break }
            }
            #expect(pages.first == [1, 2])
            #expect(pages.dropFirst().allSatisfy { !$0.isEmpty && $0.count <= 256 }, "\(pages.map(\.count))")
            #expect(pages.flatMap { $0 } == Array(1...1_202))
        }
    }

    // MARK: The store's methods

    @Test(arguments: StoreKind.allCases)
    func replicasAndUnsignedValuesRoundTripExactly(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let records = [
                ReplicaRecord(replica: "é", appliedThrough: .max, digest: .max, cursor: .max, lastSeen: .max, isRetired: true),
                ReplicaRecord(replica: "B", appliedThrough: 0, digest: nil, cursor: -1, lastSeen: 0, isRetired: false),
                ReplicaRecord(replica: "a", appliedThrough: 7, digest: 1 << 63, cursor: 3, lastSeen: (1 << 63) + 5, isRetired: false),
            ]
            let clock = HybridTimestamp(rawValue: .max - 1)
            let stamp = SyncStamp(time: HybridTimestamp(rawValue: (1 << 63) | 12345), replica: "w")
            let state = RowRegister(
                existence: ExistenceRegister(exists: true, stamp: stamp), lastDelete: nil,
                cells: ["n": CellRegister(value: .integer(.min), stamp: stamp)])
            try await store.transaction(tenant: "t") { store in
                for record in records { try store.setReplica(record) }
                try store.setClock(clock)
                try store.setRowState(state, table: "note", key: .text("k"), sequence: 1)
                _ = try store.appendChange(
                    SyncChange(table: "note", key: .text("k"), kind: .update, columns: [SyncColumnValue(name: "n", value: .real(-0.5))], stamp: stamp),
                    origin: "a", batch: nil)
            }
            let updated = ReplicaRecord(replica: "a", appliedThrough: 8, digest: 1, cursor: 4, lastSeen: 9, isRetired: true)
            let read = try await store.transaction(tenant: "t") { store in
                try store.setReplica(updated)
                return (try store.replicas(), try store.replica("é"), try store.replica("unknown"), try store.clock(),
                        try store.rowState(table: "note", key: .text("k")), try store.changes(after: 0, limit: 10))
            }
            #expect(read.0 == [records[1], updated, records[0]], "in byte order of their ids, updated in place")
            #expect(read.1 == records[0] && read.2 == nil)
            #expect(read.3 == clock)
            #expect(read.4 == state)
            #expect(read.5.first?.entry.change.stamp == stamp && read.5.first?.entry.change.columns.first?.value == .real(-0.5))
            let other = try await store.transaction(tenant: "u") { store in (try store.replicas(), try store.clock(), try store.latestSequence()) }
            #expect(other.0.isEmpty && other.1 == .zero && other.2 == 0)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func rowsPageInTableThenKeyOrderWithTextBeforeBlob(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let keys: [DatabaseValue] = [
                .blob([0xFF]), .text("b"), .blob([]), .text("é"), .text("B"), .blob([1, 2]), .text(""), .blob([0]), .text("a"),
                .blob(Array("a".utf8)),
            ]
            let ordered: [DatabaseValue] = [
                .text(""), .text("B"), .text("a"), .text("b"), .text("é"), .blob([]), .blob([0]), .blob([1, 2]), .blob(Array("a".utf8)),
                .blob([0xFF]),
            ]
            let tables = ["t1", "T0", "t1\u{0}"]
            let stamp = SyncStamp(time: HybridTimestamp(milliseconds: Self.wall), replica: "w")
            try await store.transaction(tenant: "t") { store in
                for table in tables {
                    for (index, key) in keys.enumerated() {
                        var state = RowRegister(existence: ExistenceRegister(exists: true, stamp: stamp))
                        state.cells["i"] = CellRegister(value: .integer(Int64(index)), stamp: stamp)
                        try store.setRowState(state, table: table, key: key, sequence: Int64(index))
                    }
                }
            }
            let expected = ["T0", "t1", "t1\u{0}"].flatMap { table in ordered.map { SnapshotPosition(table: table, key: $0) } }
            let (all, paged, afterNumber, afterNull, afterLast) = try await store.transaction(tenant: "t") { store in
                let all = try store.rows(after: nil, limit: 100)
                var paged: [SnapshotRow] = []
                var position: SnapshotPosition?
                while true {
                    let page = try store.rows(after: position, limit: 4)
                    paged += page
                    guard page.count == 4, let last = page.last else { break }
                    position = SnapshotPosition(table: last.table, key: last.key)
                }
                return (
                    all, paged, try store.rows(after: SnapshotPosition(table: "t1", key: .integer(5)), limit: 100),
                    try store.rows(after: SnapshotPosition(table: "t1", key: .null), limit: 100),
                    try store.rows(after: SnapshotPosition(table: "t1\u{0}", key: .blob([0xFF])), limit: 100))
            }
            #expect(all.map { SnapshotPosition(table: $0.table, key: $0.key) } == expected)
            #expect(paged == all)
            #expect(all.first?.state.cells["i"]?.value == .integer(6), "the row stored under the empty text key")
            // Positions a device may send with a key of another kind compare as SQLite compares them: a
            // number before every text key, and nothing after NULL.
            #expect(afterNumber.count == keys.count * 2 && afterNumber.first?.table == "t1")
            #expect(afterNull.count == keys.count && afterNull.allSatisfy { $0.table == "t1\u{0}" })
            #expect(afterLast.isEmpty)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func tombstonesAreRemovedOnlyThroughTheirSequence(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let stamp = SyncStamp(time: HybridTimestamp(milliseconds: Self.wall), replica: "w")
            let dead = RowRegister(existence: ExistenceRegister(exists: false, stamp: stamp), lastDelete: stamp)
            let alive = RowRegister(existence: ExistenceRegister(exists: true, stamp: stamp))
            let removed = try await store.transaction(tenant: "t") { store in
                try store.setRowState(dead, table: "n", key: .text("old"), sequence: 3)
                try store.setRowState(dead, table: "n", key: .blob([9]), sequence: 8)
                try store.setRowState(alive, table: "n", key: .text("live"), sequence: 1)
                return (try store.removeTombstones(through: 5), try store.removeTombstones(through: 5))
            }
            #expect(removed == (1, 0))
            let left = try await store.transaction(tenant: "t") { store in try store.rows(after: nil, limit: 10).map(\.key) }
            #expect(left == [.text("live"), .blob([9])])
        }
    }
}

/// The stores the contract tests run against.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    /// ``SQLiteTenantFilesStore``: a SQLite file per tenant.
    case tenantFiles
    case postgreSQL

    var testDescription: String { rawValue }

    /// Whether one tenant's write transaction leaves another tenant free to write: a writer per tenant
    /// (a file each, or PostgreSQL's connections), not one writer for every tenant.
    var writesTenantsSideBySide: Bool { self != .sqlite }

    /// Runs `body` with a new, empty store of this kind, closed afterwards. Returns without running
    /// `body` for PostgreSQL when no server is configured.
    func withStore(test: String = #function, _ body: (any SyncStore) async throws -> Void) async throws {
        switch self {
        case .sqlite:
            let store = try await SQLiteSyncStore.open(url: BoutiqueDB.inMemoryURL())
            try await body(store)
            await store.close()
        case .tenantFiles:
            let directory = try SyncTemporaryDirectory(inMemory: true)
            let store = try await SQLiteTenantFilesStore.open(directory: directory.url)
            do {
                try await body(store)
            } catch {
                await store.close()
                throw error
            }
            await store.close()
            withExtendedLifetime(directory) {}
        case .postgreSQL:
            try await PostgreSQLTestDatabase.withFresh(test: test) { url in
                let store = try await PostgreSQLSyncStore.open(url: url)
                do {
                    try await body(store)
                } catch {
                    await store.close()
                    throw error
                }
                await store.close()
            }
        }
    }
}
