import BoutiqueSync
@testable import BoutiqueSyncServer
import Foundation
import Testing

/// What one tenant's devices can make the server store and hand out: pages bounded in bytes, values,
/// rows and names bounded in size, on every store.
@Suite struct SyncServerLimitsTests {
    static let wall = SyncStoreContractTests.wall
    /// A page budget a few values fill.
    static let limits = SyncServerLimits(maximumPageBytes: 10_000, maximumValueBytes: 4_000, maximumRowStateBytes: 12_000)

    static func server(_ store: any SyncStore, rules: SyncRules? = nil, limits: SyncServerLimits = limits) -> SyncServer {
        SyncServer(store: store, rules: rules, maximumClockSkewMilliseconds: 60_000, limits: limits, wallClock: { wall })
    }

    /// A transaction of inserts into `table`, one per key, each with a `size`-byte text column `column`.
    static func transaction(_ id: Int64, table: String = "note", keys: [String], column: String = "body", size: Int) -> SyncTransaction {
        let stamp = SyncStamp(time: HybridTimestamp(milliseconds: wall), replica: "writer")
        return SyncTransaction(id: id, stamp: stamp, changes: keys.map { key in
            SyncChange(
                table: table, key: .text(key), kind: .insert,
                columns: [SyncColumnValue(name: column, value: .text(String(repeating: "x", count: size)))], stamp: stamp)
        })
    }

    static func push(
        _ server: SyncServer, _ transactions: [SyncTransaction], replica: String = "r", base: Int64 = 0, digest: UInt64? = nil,
        user: String? = nil, tables: [SyncTableShape]? = nil
    ) async throws -> PushResponse {
        try await server.push(
            PushRequest(
                replica: replica, baseTransactionID: base, baseDigest: digest, schemaVersion: 1, transactions: transactions, tables: tables),
            tenant: "t", user: user)
    }

    /// Every page of a pull from 0, by following `hasMore`.
    static func pages(_ server: SyncServer, user: String? = nil) async throws -> [PullResponse] {
        var pages: [PullResponse] = []
        var cursor: Int64 = 0
        repeat {
            let page = try await server.pull(PullRequest(replica: "reader", cursor: cursor, limit: 1_000), tenant: "t", user: user)
            #expect(page.outcome == .changes)
            pages.append(page)
            cursor = page.nextCursor
        } while pages.last?.hasMore == true && pages.count < 100
        return pages
    }

    /// Every page of a snapshot, by following `next`.
    static func snapshotPages(_ server: SyncServer, user: String? = nil) async throws -> [SnapshotResponse] {
        var pages: [SnapshotResponse] = []
        var after: SnapshotPosition?
        repeat {
            let page = try await server.snapshot(SnapshotRequest(replica: "reader", after: after, limit: 1_000), tenant: "t", user: user)
            #expect(page.reason == nil)
            pages.append(page)
            after = page.next
        } while after != nil && pages.count < 100
        return pages
    }

    static func textBytes(_ changes: [ServerChange]) -> Int {
        changes.reduce(0) { total, change in total + change.change.columns.reduce(0) { $0 + RequestLimits.bytes(of: $1.value) } }
    }

    // MARK: Pages

    @Test(arguments: StoreKind.allCases)
    func pullPagesStopAtTheByteBudgetOnWholeTransactions(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let server = Self.server(store)
            // Ten transactions of 3,000 bytes, then one of three changes that alone passes the budget.
            let small = (1...10).map { Self.transaction(Int64($0), keys: ["k\($0)"], size: 3_000) }
            let whole = Self.transaction(11, keys: ["a", "b", "c", "d"], size: 3_000)
            #expect(try await Self.push(server, small + [whole]).outcome == .accepted)
            let pages = try await Self.pages(server)
            let counts = pages.map(\.changes.count)
            #expect(counts == [3, 3, 3, 1, 4], "three transactions fit 10,000 bytes; the last one comes whole, alone")
            #expect(pages.dropLast().allSatisfy(\.hasMore) && pages.last?.hasMore == false)
            #expect(pages.dropLast().allSatisfy { Self.textBytes($0.changes) <= 10_000 })
            #expect(pages.flatMap(\.changes).map(\.sequence) == Array(1...14), "every change once, in order")
            #expect(pages.map(\.nextCursor) == [3, 6, 9, 10, 14])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func snapshotPagesStopAtTheByteBudget(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let server = Self.server(store)
            let keys = (0..<10).map { String(format: "k%02d", $0) }
            #expect(try await Self.push(server, [Self.transaction(1, keys: keys, size: 3_000)]).outcome == .accepted)
            let pages = try await Self.snapshotPages(server)
            #expect(pages.map(\.rows.count) == [3, 3, 3, 1])
            #expect(pages.flatMap(\.rows).map(\.key) == keys.map { .text($0) })
            #expect(pages.last?.next == nil && pages.dropLast().allSatisfy { $0.next != nil })
        }
    }

    @Test(arguments: StoreKind.allCases)
    func spacePullsAndSnapshotsStopAtTheByteBudget(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let server = Self.server(store, rules: try SpacesSchema.rules())
            // Private tags (a space of ana's own) and two lists (a space each), one transaction per row.
            var transactions = (1...6).map { Self.transaction(Int64($0), table: "tag", keys: ["t\($0)"], column: "name", size: 3_000) }
            transactions += (7...10).map {
                Self.transaction(Int64($0), table: "reminderslist", keys: ["l\($0 % 2)-\($0)"], column: "title", size: 3_000)
            }
            let shapes = [SyncTableShape(table: "tag", columns: ["id", "name"]), SyncTableShape(table: "reminderslist", columns: ["id", "title"])]
            let pushed = try await Self.push(server, transactions, user: "ana", tables: shapes)
            #expect(pushed.outcome == .accepted && pushed.refusals == nil)
            let pages = try await Self.pages(server, user: "ana")
            #expect(pages.count >= 4, "ten 3,000-byte changes take four pages of 10,000 bytes")
            #expect(pages.allSatisfy { Self.textBytes($0.changes) <= 10_000 })
            #expect(pages.flatMap(\.changes).count == 10)
            let snapshot = try await Self.snapshotPages(server, user: "ana")
            #expect(snapshot.count >= 4)
            #expect(snapshot.allSatisfy { page in page.rows.count <= 3 })
            #expect(Set(snapshot.flatMap(\.rows).map(\.key)).count == 10, "every row once")
        }
    }

    // MARK: Values, rows and names

    @Test(arguments: StoreKind.allCases)
    func anOversizedValueRefusesItsTransactionAloneAndStoresNothingOfIt(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let server = Self.server(store)
            let answer = try await Self.push(server, [Self.transaction(1, keys: ["a"], size: 10), Self.transaction(2, keys: ["b"], size: 4_001)])
            // Handled (the device's later pushes go on), not applied: refused with the reason.
            #expect(answer.outcome == .accepted && answer.appliedThrough == 2)
            let refusal = try #require(answer.refusals?.first)
            #expect(answer.refusals?.count == 1 && refusal.transactionID == 2 && refusal.reason == .tooLarge)
            #expect(refusal.message.contains("4001 bytes") && refusal.message.contains("4000"), "\(refusal.message)")
            #expect(refusal.absentRows.map(\.key) == [.text("b")], "the device removes the row the server never had")
            let stored = try await store.transaction(tenant: "t") { store in
                (try store.latestSequence(), try store.rows(after: nil, limit: 10).map(\.key))
            }
            #expect(stored.0 == 1 && stored.1 == [.text("a")], "only the first transaction is stored")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aRowGrowingPastItsLimitRefusesItsTransactionAndKeepsItsState(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let server = Self.server(store)
            var digest: UInt64?
            var base: Int64 = 0
            var refused: [PushRefusal] = []
            // Each push adds a new 3,000-byte column to the same row.
            for id in Int64(1)...5 {
                let answer = try await Self.push(
                    server, [Self.transaction(id, keys: ["k"], column: "c\(id)", size: 3_000)], base: base, digest: digest)
                #expect(answer.outcome == .accepted && answer.appliedThrough == id, "every push is handled")
                refused += answer.refusals ?? []
                (base, digest) = (answer.appliedThrough, answer.digest)
            }
            #expect(refused.map(\.transactionID) == [4, 5], "three columns fit 12,000 bytes, the fourth and fifth do not")
            #expect(refused.allSatisfy { $0.reason == .tooLarge && $0.rows.map(\.key) == [.text("k")] })
            let state = try await store.transaction(tenant: "t") { store in try store.rowState(table: "note", key: .text("k")) }
            #expect(state?.cells.keys.sorted() == ["c1", "c2", "c3"])
            #expect(try await store.transaction(tenant: "t") { store in try store.latestSequence() } == 3, "nothing of them logged")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func longNamesAreRefusedAtPushPullAndSnapshot(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let server = Self.server(store)
            let long = String(repeating: "r", count: 129)
            let byReplica = try await Self.push(server, [Self.transaction(1, keys: ["a"], size: 1)], replica: long)
            #expect(byReplica.outcome == .refused && byReplica.refusal == .invalid && byReplica.reason?.contains("128") == true)
            let byTable = try await Self.push(server, [Self.transaction(1, table: String(repeating: "t", count: 257), keys: ["a"], size: 1)])
            #expect(byTable.refusal == .invalid && byTable.reason?.contains("256") == true, "\(byTable.reason ?? "")")
            let byColumn = try await Self.push(server, [Self.transaction(1, keys: ["a"], column: String(repeating: "c", count: 257), size: 1)])
            #expect(byColumn.refusal == .invalid && byColumn.reason?.contains("256") == true)
            let byKey = try await Self.push(server, [Self.transaction(1, keys: [String(repeating: "k", count: 1_025)], size: 1)])
            #expect(byKey.refusal == .invalid && byKey.reason?.contains("1024") == true)
            let pull = try await server.pull(PullRequest(replica: long, cursor: 0, limit: 10), tenant: "t")
            #expect(pull.outcome == .refused && pull.refusal == .invalid && pull.reason?.contains("128") == true)
            let snapshot = try await server.snapshot(SnapshotRequest(replica: long, after: nil, limit: 10), tenant: "t")
            #expect(snapshot.refusal == .invalid && snapshot.rows.isEmpty)
            let position = SnapshotPosition(table: "note", key: .text(String(repeating: "k", count: 1_025)))
            let after = try await server.snapshot(SnapshotRequest(replica: "r", after: position, limit: 10), tenant: "t")
            #expect(after.refusal == .invalid && after.reason?.contains("1024") == true)
            let stored = try await store.transaction(tenant: "t") { store in (try store.latestSequence(), try store.replicas()) }
            #expect(stored.0 == 0 && stored.1.isEmpty, "nothing of the refused pushes is stored")
        }
    }
}
