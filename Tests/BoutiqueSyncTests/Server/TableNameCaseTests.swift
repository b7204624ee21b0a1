import BoutiqueSync
import BoutiqueSyncServer
import Foundation
import Testing

/// A table is one table in whatever case a push names it, as in SQLite: `LISTS` is `lists`.
@Suite struct TableNameCaseTests {
    static func push(
        _ server: SyncServer, user: String?, replica: String, _ changes: [(table: String, key: String, column: String, value: String)]
    ) async throws -> PushResponse {
        let stamp = SyncStamp(time: HybridTimestamp(milliseconds: UInt64(Date().timeIntervalSince1970 * 1000)), replica: replica)
        let sent = changes.map { change in
            SyncChange(
                table: change.table, key: .text(change.key), kind: .insert,
                columns: [SyncColumnValue(name: change.column, value: .text(change.value))], stamp: stamp)
        }
        var request = PushRequest(
            replica: replica, baseTransactionID: 0, baseDigest: nil, schemaVersion: 1,
            transactions: [SyncTransaction(id: 1, stamp: stamp, changes: sent)])
        request.replicaSecret = replica
        return try await server.push(request, tenant: "t", user: user)
    }

    static func rows(_ server: SyncServer) async throws -> [SnapshotRow] {
        try await server.snapshot(SnapshotRequest(replica: "reader", after: nil, limit: 100), tenant: "t").rows
    }

    @Test(arguments: StoreKind.allCases)
    func aTableNamedInCapitalsIsTheSameTable(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let server = SyncServer(store: store)
            #expect(try await Self.push(server, user: nil, replica: "a", [("note", "k", "title", "first")]).outcome == .accepted)
            #expect(try await Self.push(server, user: nil, replica: "b", [("NOTE", "k", "TITLE", "second")]).outcome == .accepted)
            let rows = try await Self.rows(server)
            #expect(rows.map(\.table) == ["note"], "one row, under the name devices use")
            #expect(rows.first?.state.cells.keys.sorted() == ["title"])
            #expect(rows.first?.state.cells["title"]?.value == .text("second"))
            let log = try await server.pull(PullRequest(replica: "reader", cursor: 0, limit: 10), tenant: "t").changes
            #expect(log.map(\.change.table) == ["note", "note"])
            // One row in two spellings in one transaction is one row changed twice: refused.
            let twice = try await Self.push(server, user: nil, replica: "c", [("note", "j", "title", "x"), ("Note", "j", "title", "y")])
            #expect(twice.outcome == .refused && twice.refusal == .invalid)
        }
    }

    /// A root row named in capitals is not another space its writer would own: it is the list, and
    /// a user who is not its member may not write it.
    @Test(arguments: StoreKind.allCases)
    func aRootRowNamedInCapitalsIsTheSameSpace(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let server = SyncServer(store: store, rules: try SpacesSchema.rules())
            #expect(try await Self.push(server, user: "ana", replica: "ana-1", [("remindersList", "L1", "title", "Groceries")]).refusals == nil)
            for spelling in ["REMINDERSLIST", "RemindersList"] {
                let eve = try await Self.push(server, user: "eve", replica: "eve-\(spelling)", [(spelling, "L1", "title", "Eve's now")])
                #expect(eve.refusals?.count == 1, "\(spelling): \(eve)")
            }
            let rows = try await Self.rows(server)
            #expect(rows.map(\.table) == ["reminderslist"])
            #expect(rows.first?.state.cells["title"]?.value == .text("Groceries"))
            let members = try await server.membership(
                MembershipRequest(table: "REMINDERSLIST", key: .text("L1")), action: .members, tenant: "t", user: "eve")
            #expect(members.refusal == .forbidden)
            let eves = try await server.snapshot(SnapshotRequest(replica: "eve-x", after: nil, limit: 100), tenant: "t", user: "eve")
            #expect(eves.rows.isEmpty, "Eve owns no space of her own making")
        }
    }
}
