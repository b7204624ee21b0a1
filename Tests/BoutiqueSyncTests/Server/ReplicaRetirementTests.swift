import BoutiqueSync
@testable import BoutiqueSyncServer
import Foundation
import Testing

/// A device gives up a replica id (after a restore or a copy) by naming it in a push: only with that
/// id's secret, so that no other device of the tenant can retire it. An id from before secrets is
/// bound by its first use with one, and a stamp's writer id is bounded like a replica id.
@Suite struct ReplicaRetirementTests {
    typealias Contract = SyncStoreContractTests

    static func push(
        _ server: SyncServer, replica: String, secret: String?, _ transactions: [SyncTransaction] = [], base: Int64 = 0,
        digest: UInt64? = nil, retiring retired: String? = nil, retiredSecret: String? = nil
    ) async throws -> PushResponse {
        var request = PushRequest(
            replica: replica, baseTransactionID: base, baseDigest: digest, schemaVersion: 1, transactions: transactions,
            retiredReplica: retired)
        request.replicaSecret = secret
        request.retiredReplicaSecret = retiredSecret
        return try await server.push(request, tenant: "t")
    }

    static func record(_ store: any SyncStore, _ replica: String) async throws -> ReplicaRecord? {
        try await store.transaction(tenant: "t") { store in try store.replica(replica) }
    }

    @Test(arguments: StoreKind.allCases)
    func retiringAnotherDevicesReplicaIdTakesItsSecret(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let server = Contract.server(store)
            let victim = try await Self.push(server, replica: "victim", secret: "victim's", [Contract.transaction(1)])
            #expect(victim.outcome == .accepted)
            // Another device names the victim's id as the one it gave up: without the secret, or with
            // another, its push is applied and the victim's id is left as it was.
            for (index, guess) in [nil, "guess", ""].enumerated() {
                let digest = try await Self.record(store, "eve")?.digest
                let pushed = try await Self.push(
                    server, replica: "eve", secret: "eve's", [Contract.transaction(Int64(index + 1), keys: [.text("e\(index)")])],
                    base: Int64(index), digest: digest, retiring: "victim", retiredSecret: guess)
                #expect(pushed.outcome == .accepted && pushed.appliedThrough == Int64(index + 1), "\(pushed)")
                #expect(try await Self.record(store, "victim")?.isRetired == false, "retired with the secret \(guess ?? "nil")")
            }
            // Collection still waits for the victim, who has pulled nothing, though Eve pulled everything.
            var pull = PullRequest(replica: "eve", cursor: 0, limit: 100)
            pull.replicaSecret = "eve's"
            #expect(try await server.pull(pull, tenant: "t").nextCursor == 4)
            try await server.writePullCursors()
            let report = try await server.collectGarbage(tenant: "t")
            #expect(report.horizon == 0 && report.tombstonesRemoved == 0)
            // The victim's own file, under its new id, retires it with the secret it kept.
            let restored = try await Self.push(server, replica: "victim-2", secret: "new", retiring: "victim", retiredSecret: "victim's")
            #expect(restored.outcome == .accepted)
            #expect(try await Self.record(store, "victim")?.isRetired == true)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func anIdFromBeforeSecretsIsBoundByItsFirstUseAndRetiredOnlyWithThatSecret(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let server = Contract.server(store)
            let legacy = try await Self.push(server, replica: "old", secret: nil, [Contract.transaction(1), Contract.transaction(2, keys: [.text("j")])])
            #expect(legacy.outcome == .accepted && legacy.appliedThrough == 2)
            // An id bound to no secret cannot be proved: naming it retires nothing.
            _ = try await Self.push(server, replica: "eve", secret: "eve's", retiring: "old", retiredSecret: "eve's")
            #expect(try await Self.record(store, "old")?.isRetired == false)
            #expect(try await Self.record(store, "old")?.secretHash == nil, "nor binds it to the claimant's secret")
            // The file, restored from a backup made after its first transaction, pushes with the secret it
            // now has: the 409 tells it the watermark, and binds the id to that secret.
            let restored = try await Self.push(server, replica: "old", secret: "file's", [Contract.transaction(2, keys: [.text("other")])], base: 1)
            #expect(restored.outcome == .mismatch && restored.appliedThrough == 2)
            #expect(try await Self.record(store, "old")?.secretHash == (try ReplicaSecret.hash("file's")))
            // From then on the watermark is the file's alone.
            let probe = try await Self.push(server, replica: "old", secret: "eve's", [Contract.transaction(3)], base: 1)
            #expect(probe.outcome == .forbidden && probe.refusal == .replicaTaken && probe.digest == nil, "\(probe)")
            // The file takes a new id and gives the old one up, proving it with the secret.
            let renewed = try await Self.push(server, replica: "new", secret: "new's", retiring: "old", retiredSecret: "file's")
            #expect(renewed.outcome == .accepted)
            #expect(try await Self.record(store, "old")?.isRetired == true)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aWriterIdLongerThanAReplicaIdIsRefusedAndNothingIsStored(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let server = Contract.server(store)
            func stamped(by writer: String, id: Int64) -> SyncTransaction {
                let stamp = SyncStamp(time: HybridTimestamp(milliseconds: Contract.wall), replica: writer)
                let change = SyncChange(
                    table: "note", key: .text("k\(id)"), kind: .insert, columns: [SyncColumnValue(name: "title", value: .text("t"))],
                    stamp: stamp)
                return SyncTransaction(id: id, stamp: stamp, changes: [change])
            }
            let limit = SyncServerLimits().maximumReplicaIDBytes
            for writer in [String(repeating: "w", count: limit + 1), String(repeating: "w", count: 1 << 20)] {
                let refused = try await Self.push(server, replica: "device", secret: "s", [stamped(by: writer, id: 1)])
                #expect(refused.outcome == .refused && refused.refusal == .invalid, "\(refused.outcome)")
                #expect(refused.reason?.contains("writer id of \(writer.utf8.count) bytes") == true, "\(refused.reason ?? "")")
            }
            #expect(try await Contract.log(server).isEmpty)
            #expect(try await Self.record(store, "device") == nil)
            let accepted = try await Self.push(server, replica: "device", secret: "s", [stamped(by: String(repeating: "w", count: limit), id: 1)])
            #expect(accepted.outcome == .accepted)
            #expect(try await Contract.log(server).count == 1)
        }
    }
}
