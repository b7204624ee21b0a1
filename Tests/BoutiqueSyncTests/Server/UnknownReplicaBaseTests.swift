import BoutiqueSync
@testable import BoutiqueSyncServer
import Foundation
import Testing

/// A replica id the server does not know, pushing from a base past 0, says the server acknowledged
/// transactions it has no record of: a server restored from a backup made before it knew the replica.
/// The base is not taken as the replica's watermark (everything before it would be skipped) unless the
/// id the device gave up for it is one the server knows at or past that base.
@Suite struct UnknownReplicaBaseTests {
    typealias Contract = SyncStoreContractTests
    typealias Retirement = ReplicaRetirementTests

    @Test(arguments: StoreKind.allCases)
    func aBaseTheServerHasNoRecordOfIsAnsweredWithNothingHeld(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let server = Contract.server(store)
            let answer = try await Retirement.push(
                server, replica: "device", secret: "device's", [Contract.transaction(8, keys: [.text("late")])], base: 7, digest: 77)
            #expect(answer.outcome == .mismatch && answer.appliedThrough == 0 && answer.digest == nil, "\(answer)")
            #expect(try await Retirement.record(store, "device") == nil, "nothing is recorded of the replica")
            let log = try await server.pull(PullRequest(replica: "reader", cursor: 0, limit: 100), tenant: "t")
            #expect(log.changes.isEmpty, "nothing is applied")

            // From nothing, the device's transactions are taken as usual.
            let again = try await Retirement.push(
                server, replica: "device", secret: "device's", [Contract.transaction(7, keys: [.text("early")]), Contract.transaction(8, keys: [.text("late")])])
            #expect(again.outcome == .accepted && again.appliedThrough == 8, "\(again)")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func theIdGivenUpVouchesForTheBaseOnlyWhereItsRecordReachesIt(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let server = Contract.server(store)
            let old = try await Retirement.push(server, replica: "old", secret: "old's", [Contract.transaction(5)])
            #expect(old.appliedThrough == 5)
            // A copy of the file, behind the server's record of the old id, takes a new id: its base is held.
            let copy = try await Retirement.push(
                server, replica: "copy", secret: "copy's", base: 4, digest: 44, retiring: "old", retiredSecret: "old's")
            #expect(copy.outcome == .accepted && copy.appliedThrough == 4, "\(copy)")
            // A base past the old id's record is not.
            let ahead = try await Retirement.push(
                server, replica: "ahead", secret: "ahead's", base: 6, digest: 66, retiring: "old", retiredSecret: "old's")
            #expect(ahead.outcome == .mismatch && ahead.appliedThrough == 0, "\(ahead)")
            #expect(try await Retirement.record(store, "ahead") == nil)
        }
    }
}
