import BoutiqueSync
import BoutiqueSyncServer
import Foundation
import Testing

/// The refusals a store keeps for each replica: past the replica's base (a copy of the device's file
/// restored from an older backup has not heard of them), the newest of them only, none for a replica
/// given up.
extension SyncStoreContractTests {
    /// A server on `store` that refuses every title "secret" of a pushing user.
    static func strictServer(_ store: any SyncStore) -> SyncServer {
        SyncServer(
            store: store, authorize: { _, change in !change.columns.contains { $0.value == .text("secret") } },
            maximumClockSkewMilliseconds: 60_000, wallClock: { wall })
    }

    static func push(_ server: SyncServer, _ transactions: [SyncTransaction], base: Int64, digest: UInt64?) async throws -> PushResponse {
        try await server.push(
            PushRequest(replica: "r", baseTransactionID: base, baseDigest: digest, schemaVersion: 1, transactions: transactions),
            tenant: "t", user: "ann")
    }

    /// Three transactions, the second of which the strict server refuses.
    static let pastARefusal = (
        first: transaction(1, keys: [.text("a")]), refused: transaction(2, keys: [.text("b")], title: "secret"),
        last: transaction(3, keys: [.text("c")])
    )

    /// Pushes ``pastARefusal`` from the start: accepted through 3, the second refused.
    static func pushPastARefusal(_ server: SyncServer) async throws -> PushResponse {
        let (first, refused, last) = pastARefusal
        let pushed = try await push(server, [first, refused, last], base: 0, digest: nil)
        #expect(pushed.outcome == .accepted && pushed.appliedThrough == 3 && pushed.refusals?.map(\.transactionID) == [2])
        return pushed
    }

    @Test(arguments: StoreKind.allCases)
    func aPushFromAnOlderBaseHearsOfTheRefusalsThePushesAfterItPassed(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let server = Self.strictServer(store)
            let (first, refused, last) = Self.pastARefusal
            let pushed = try await Self.pushPastARefusal(server)
            // The device heard of it, and says so with its next push's base.
            let after = try await Self.push(server, [], base: 3, digest: pushed.digest)
            #expect(after.outcome == .accepted && after.refusals == nil)

            // A copy of the file from before the push pushes from the older base, short of the watermark.
            let copy = try await Self.push(server, [refused], base: 1, digest: first.digest)
            #expect(copy.outcome == .mismatch && copy.appliedThrough == 3 && copy.digest == pushed.digest)
            let told = try #require(copy.refusals, "the mismatch answer tells the refusal the watermark passed")
            #expect(told.map(\.transactionID) == [2] && told.first?.key == .text("b") && told.first?.rowsLeftOut == true)
            // Resent as far as the watermark, the refused transaction is refused again, as decided then.
            let resent = try await Self.push(server, [refused, last], base: 1, digest: first.digest)
            #expect(resent.outcome == .accepted && resent.refusals?.map(\.transactionID) == [2])
            #expect(try await Self.log(server).map(\.change.key) == [.text("a"), .text("c")], "nothing refused was applied")
            // A push from the watermark itself hears of nothing again.
            let current = try await Self.push(server, [], base: 3, digest: pushed.digest)
            #expect(current.outcome == .accepted && current.refusals == nil)
        }
    }

    /// A copy of the file from before a refused push, whose clock has since run ahead: its push is
    /// refused for the stamps, with the watermark the device takes if its file holds it, so the
    /// refusals the watermark passed come with it, as with a mismatch.
    @Test(arguments: StoreKind.allCases)
    func aPushRefusedForItsStampsHearsOfTheRefusalsTheWatermarkPassed(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let server = Self.strictServer(store)
            let first = Self.pastARefusal.first
            let pushed = try await Self.pushPastARefusal(server)

            let ahead = Self.transaction(4, at: Self.wall + 3_600_000, keys: [.text("d")])
            let copy = try await Self.push(server, [ahead], base: 1, digest: first.digest)
            #expect(copy.outcome == .refused && copy.refusal == .clockSkew && copy.appliedThrough == 3)
            let told = try #require(copy.refusals, "the refusal for the stamps tells the refusals the watermark passed")
            #expect(told.map(\.transactionID) == [2] && told.first?.key == .text("b") && told.first?.rowsLeftOut == true)
            // From the watermark itself, there is nothing to tell.
            let current = try await Self.push(server, [ahead], base: 3, digest: pushed.digest)
            #expect(current.outcome == .refused && current.refusals == nil)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aStoreKeepsTheNewestRefusalsOfAReplica(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let kept = try await store.transaction(tenant: "t") { transaction -> [Int64] in
                for id in Int64(1)...7 {
                    try transaction.recordRefusal(RefusedTransaction(transactionID: id, table: "note", key: .integer(id), reason: "no"), replica: "r")
                    try transaction.recordRefusal(RefusedTransaction(transactionID: id, table: "note", key: .integer(id), reason: "no"), replica: "s")
                }
                try transaction.forgetRefusals(replica: "r", keepingNewest: 3)
                try transaction.forgetRefusals(replica: "r", keepingNewest: 5)
                return try transaction.refusedTransactions(replica: "r", from: 0, through: .max).map(\.transactionID)
            }
            #expect(kept == [5, 6, 7])
            let other = try await store.transaction(tenant: "t") { transaction -> [Int64] in
                try transaction.refusedTransactions(replica: "s", from: 0, through: .max).map(\.transactionID)
            }
            #expect(other == Array(1...7), "another replica's are its own")
            let forgotten = try await store.transaction(tenant: "t") { transaction -> Int in
                try transaction.forgetRefusals(replica: "s", through: .max)
                return try transaction.refusedTransactions(replica: "s", from: 0, through: .max).count
            }
            #expect(forgotten == 0)
        }
    }
}
