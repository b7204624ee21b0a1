import BoutiqueSync
@testable import BoutiqueSyncServer
import Foundation
import Testing

/// The shapes a tenant's devices describe (which table a follower's column points to) are that
/// tenant's: another tenant describing tables of the same names changes nothing of where the first
/// tenant's rows go, cannot stop a restart, and cannot describe tables without bound.
@Suite struct TenantShapesTests {
    /// An empty push from `tenant`'s device describing `tables`.
    static func describe(_ tables: [SyncTableShape], replica: String) -> PushRequest {
        PushRequest(replica: replica, baseTransactionID: 0, baseDigest: nil, schemaVersion: 1, transactions: [], tables: tables)
    }

    @Test(arguments: StoreKind.allCases) func anotherTenantsShapesChangeNothingOfWhereRowsGo(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            var app = try await SharedReminders(store: store)
            try await app.add("ana")
            try await app.add("bob")
            try await app.write("ana", "INSERT INTO remindersList(id, title) VALUES ('L1', 'Home')")
            _ = try await app.sync("ana").synchronize()
            _ = try await app.sync("ana").share("remindersList", key: .text("L1"), with: "bob", role: .editor)
            try await app.syncAll(["bob"])

            // Another tenant's device says a reminder has no list column.
            let junk = [SyncTableShape(table: "reminder", columns: ["id", "title"]), SyncTableShape(table: "remindersList", columns: ["id"])]
            let answer = try await app.server.push(Self.describe(junk, replica: "intruder"), tenant: "other", user: "mallory")
            #expect(answer.outcome == .accepted)

            // Ana's new reminder in the shared list still follows the list: bob receives it.
            try await app.write("ana", "INSERT INTO reminder(id, listID, title) VALUES ('r1', 'L1', 'Milk')")
            _ = try await app.sync("ana").synchronize()
            _ = try await app.sync("bob").synchronize()
            #expect(try await app.rows("bob", "reminder").map { $0[0] } == ["r1"])

            // A server started again checks the rules per tenant: the other tenant's shapes are its
            // own problem, not an outage.
            let restarted = SyncServer(store: store, rules: try SpacesSchema.rules())
            let problems = try await restarted.checkRules()
            #expect(problems.keys.sorted() == ["other"], "\(problems)")
            #expect(problems["other"]?.contains("listID") == true)
        }
    }

    @Test(arguments: StoreKind.allCases) func aSnapshotPageThatReadsTheShapesKeepsThemForTheNextRequests(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            var app = try await SharedReminders(store: store)
            try await app.add("ana")
            try await app.write("ana", "INSERT INTO remindersList(id, title) VALUES ('L1', 'Home')")
            _ = try await app.sync("ana").synchronize()

            // Another instance on the same store, which has not read the tenant's shapes yet.
            let other = SyncServer(store: store, rules: try SpacesSchema.rules())
            #expect(await other.shapes["default"] == nil)
            let page = try await other.snapshot(SnapshotRequest(replica: "new-device", after: nil, limit: 100), tenant: "default", user: "ana")
            #expect(page.rows.map(\.key) == [.text("L1")])
            let version = try await store.read(tenant: "default") { store in try store.tableShapesVersion() }
            let kept = await other.shapes["default"]
            #expect(kept?.version == version && kept?.shapes.keys.sorted() == ["reminder", "reminderslist", "remindertag", "tag"], "\(String(describing: kept?.shapes.keys))")
            #expect(kept?.mismatches.isEmpty == true)
        }
    }

    /// Two instances on one store: one refreshes its shapes from a snapshot page after the other
    /// recorded a change; a push describing what it knew before is checked against the change.
    @Test(arguments: StoreKind.allCases) func aPushAfterASnapshotPageRefreshedTheShapesIsCheckedAgainstThem(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let plain = SyncTableShape(table: "note", columns: ["id", "body"])
            let text = SyncTableShape(table: "note", columns: ["id", "body"], collaborativeText: ["body"])
            // With rules, as a snapshot page reads the shapes only to place rows in spaces.
            let first = SyncServer(store: store, rules: try SpacesSchema.rules())
            let second = SyncServer(store: store, rules: try SpacesSchema.rules())
            // An old app's device describes the plain table to the first instance.
            #expect(try await first.push(Self.describe([plain], replica: "old"), tenant: "t", user: "ana").outcome == .accepted)
            // The app's update makes the body collaborative, through the second instance.
            #expect(try await second.push(Self.describe([text], replica: "new"), tenant: "t", user: "ana").outcome == .accepted)
            // A bootstrap's page on the first instance reads the shapes the second recorded.
            _ = try await first.snapshot(SnapshotRequest(replica: "reader", after: nil, limit: 10), tenant: "t", user: "ana")
            #expect(await first.shapes["t"]?.shapes["note"]?.collaborativeText == ["body"])
            // The old app describes the plain table again: refused, as the body merges as text now.
            let again = try await first.push(Self.describe([plain], replica: "old"), tenant: "t", user: "ana")
            #expect(again.outcome == .refused && again.refusal == .invalid, "\(again)")
            #expect(again.reason?.contains("collaborative text columns body") == true, "\(again.reason ?? "")")
        }
    }

    @Test(arguments: StoreKind.allCases) func aTenantsDevicesDescribeAtMostAThousandTables(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let server = SyncServer(store: store, rules: try SpacesSchema.rules())
            let first = (0..<1_000).map { SyncTableShape(table: "junk\($0)", columns: ["id"]) }
            #expect(try await server.push(Self.describe(first, replica: "r1"), tenant: "t", user: "u").outcome == .accepted)
            let more = try await server.push(Self.describe([SyncTableShape(table: "one-more", columns: ["id"])], replica: "r2"), tenant: "t", user: "u")
            #expect(more.outcome == .refused && more.refusal == .invalid, "\(more)")
            #expect(more.reason?.contains("at most 1000") == true, "\(more.reason ?? "")")
            // Describing known tables again is fine, and another tenant has a thousand of its own.
            #expect(try await server.push(Self.describe(Array(first.prefix(3)), replica: "r3"), tenant: "t", user: "u").outcome == .accepted)
            #expect(try await server.push(Self.describe(first, replica: "r4"), tenant: "t2", user: "u").outcome == .accepted)
        }
    }
}
