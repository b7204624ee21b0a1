import BoutiqueSQLite
import BoutiqueSync
import BoutiqueSyncServer
import Foundation
import Testing

/// Rules that do not match the tables a tenant's devices sync fail closed: no pushed row of that
/// tenant is placed (a rule whose table is not found would leave rows in the common space, for every
/// user of the tenant to see), the device keeps its changes and keeps pulling, and once the rules
/// are fixed the changes go where they belong.
@Suite struct RulesMismatchTests {
    /// The reminders rules with the root misspelt: `remindersLists` is no table of the devices.
    static let misspeltRoot = #"{"roots": ["remindersLists"], "follows": {"reminder": "listID", "reminderTag": "reminderID"}, "private": ["tag"]}"#
    /// The reminders rules with a follower's column the table lacks.
    static let wrongColumn = #"{"roots": ["remindersList"], "follows": {"reminder": "list", "reminderTag": "reminderID"}, "private": ["tag"]}"#

    static func rules(_ json: String) throws -> SyncRules { try JSONDecoder().decode(SyncRules.self, from: Data(json.utf8)) }

    static func now() -> HybridTimestamp { HybridTimestamp(milliseconds: UInt64(Date().timeIntervalSince1970 * 1000)) }

    /// A column of what the device keeps of its progress with the server, as text.
    static func progress(_ database: DatabaseActor, _ column: String) async throws -> String? {
        try await database.read { conn in
            try conn.fetchAll("SELECT max(\(column)) FROM boutique_sync_server").first?.values.first?.description
        }
    }

    /// Runs `body`, which must throw a refusal the rules' mismatch caused; returns it.
    static func unplaced(_ body: () async throws -> some Any) async -> SyncRefusal? {
        do {
            _ = try await body()
            Issue.record("the push was placed")
            return nil
        } catch {
            let refusal = error as? SyncRefusal
            #expect(refusal?.reason == .rulesMismatch, "\(error)")
            return refusal
        }
    }

    @Test(arguments: StoreKind.allCases) func aMisspeltRootPlacesNothingUntilTheRulesAreFixed(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let endpoint = RestartableServer(SyncServer(store: store, rules: try Self.rules(Self.misspeltRoot)))
            var app = try await SharedReminders(store: store)
            try await app.add("alice", through: .inProcess(endpoint, user: "alice"))
            try await app.add("bob", through: .inProcess(endpoint, user: "bob"))
            _ = try await app.sync("bob").synchronize()

            // Alice's unshared list and its reminder: the push is refused whole, and names the rule.
            try await app.write("alice", "INSERT INTO remindersList(id, title) VALUES ('L1', 'Secret')")
            try await app.write("alice", "INSERT INTO reminder(id, listID, title) VALUES ('r1', 'L1', 'Gift for bob')")
            let refusal = await Self.unplaced { try await app.sync("alice").synchronize() }
            #expect(refusal?.message.contains("remindersLists") == true, "\(refusal?.message ?? "")")
            // The device pulled anyway, and keeps its changes for the next push.
            #expect(try await Self.progress(app.database("alice"), "bootstrapped") == "1")
            #expect(try await Self.progress(app.database("alice"), "acknowledged") == "0")
            #expect(try await app.rows("alice", "reminder").map { $0[0] } == ["r1"])

            // Nothing reached the store, so nothing reaches bob; his sync goes on.
            let log = try await endpoint.current.pull(PullRequest(replica: "operator", cursor: 0, limit: 100, waitMilliseconds: 0), tenant: "default")
            #expect(log.changes.isEmpty, "\(log.changes)")
            _ = try await app.sync("bob").synchronize()
            #expect(try await app.rows("bob", "remindersList").isEmpty)
            #expect(try await app.rows("bob", "reminder").isEmpty)
            // A start says so, and which tenant waits.
            let problems = try await endpoint.current.checkRules()
            #expect(problems["default"]?.contains("remindersLists") == true, "\(problems)")

            // Started again with the rules fixed: the waiting push goes to alice's own space.
            endpoint.restart(SyncServer(store: store, rules: try SpacesSchema.rules()))
            let report = try await app.sync("alice").synchronize()
            #expect(report.pushed == 2)
            #expect(try await app.sync("alice").members(of: "remindersList", key: .text("L1")).map(\.description) == ["alice owner"])
            try await app.syncAll(["bob"])
            #expect(try await app.rows("bob", "remindersList").isEmpty)
            #expect(try await app.rows("bob", "reminder").isEmpty)
            // Hers to share.
            _ = try await app.sync("alice").share("remindersList", key: .text("L1"), with: "bob", role: .viewer)
            try await app.syncAll(["bob"])
            #expect(try await app.rows("bob", "reminder").map { $0[0] } == ["r1"])
            await app.close()
        }
    }

    @Test(arguments: StoreKind.allCases) func aWrongFollowerColumnPlacesNothing(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let endpoint = RestartableServer(SyncServer(store: store, rules: try Self.rules(Self.wrongColumn)))
            var app = try await SharedReminders(store: store)
            try await app.add("alice", through: .inProcess(endpoint, user: "alice"))
            try await app.write("alice", "INSERT INTO remindersList(id, title) VALUES ('L1', 'Home')")
            try await app.write("alice", "INSERT INTO reminder(id, listID, title) VALUES ('r1', 'L1', 'Milk')")
            let refusal = await Self.unplaced { try await app.sync("alice").synchronize() }
            #expect(refusal?.message.contains("table 'reminder' has no column 'list'") == true, "\(refusal?.message ?? "")")
            // Trusted code's pushes are not placed either: where would they go?
            let trusted = SyncChange(
                table: "remindersList", key: .text("L2"), kind: .insert, columns: [SyncColumnValue(name: "title", value: .text("Work"))],
                stamp: SyncStamp(time: Self.now(), replica: "importer"))
            let imported = try await endpoint.current.push(
                PushRequest(
                    replica: "importer", baseTransactionID: 0, baseDigest: nil, schemaVersion: 1,
                    transactions: [SyncTransaction(id: 1, stamp: trusted.stamp, changes: [trusted])]),
                tenant: "default")
            #expect(imported.outcome == .refused && imported.refusal == .rulesMismatch, "\(imported)")
            #expect(try await endpoint.current.pull(PullRequest(replica: "operator", cursor: 0, limit: 100, waitMilliseconds: 0), tenant: "default").changes.isEmpty)

            endpoint.restart(SyncServer(store: store, rules: try SpacesSchema.rules()))
            #expect(try await app.sync("alice").synchronize().pushed == 2)
            await app.close()
        }
    }

    /// A server started again with rules that no longer match one tenant's tables keeps serving: that
    /// tenant's pulls (a new device bootstraps what was placed before), and every tenant the rules match.
    @Test(arguments: StoreKind.allCases) func aRestartWithRulesThatNoLongerMatchKeepsServing(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let endpoint = RestartableServer(SyncServer(store: store, rules: try SpacesSchema.rules()))
            var app = try await SharedReminders(store: store)
            try await app.add("alice", through: .inProcess(endpoint, user: "alice"))
            try await app.add("bob", through: .inProcess(endpoint, user: "bob"))
            try await app.write("alice", "INSERT INTO remindersList(id, title) VALUES ('L1', 'Home')")
            try await app.write("alice", "INSERT INTO reminder(id, listID, title) VALUES ('r1', 'L1', 'Milk')")
            _ = try await app.sync("alice").synchronize()
            _ = try await app.sync("alice").share("remindersList", key: .text("L1"), with: "bob", role: .editor)
            // Another tenant's devices sync other tables, which the rules do not match.
            let other = TenantShapesTests.describe([SyncTableShape(table: "note", columns: ["id", "body"])], replica: "other-device")
            #expect(try await endpoint.current.push(other, tenant: "other", user: "olga").outcome == .accepted)

            // Started again with the same rules: the tenant they match is served as before.
            endpoint.restart(SyncServer(store: store, rules: try SpacesSchema.rules()))
            #expect(try await endpoint.current.checkRules().keys.sorted() == ["other"])
            try await app.write("alice", "INSERT INTO reminder(id, listID, title) VALUES ('r2', 'L1', 'Eggs')")
            _ = try await app.sync("alice").synchronize()
            _ = try await app.sync("bob").synchronize()
            #expect(try await app.rows("bob", "reminder").map { $0[0] } == ["r1", "r2"])
            // The other tenant's pushes wait; its pulls are answered.
            let note = SyncChange(
                table: "note", key: .text("n1"), kind: .insert, columns: [SyncColumnValue(name: "body", value: .text("hi"))],
                stamp: SyncStamp(time: Self.now(), replica: "other-device"))
            let pushed = try await endpoint.current.push(
                PushRequest(
                    replica: "other-device", baseTransactionID: 0, baseDigest: nil, schemaVersion: 1,
                    transactions: [SyncTransaction(id: 1, stamp: note.stamp, changes: [note])]),
                tenant: "other", user: "olga")
            #expect(pushed.outcome == .refused && pushed.refusal == .rulesMismatch, "\(pushed)")
            #expect(pushed.reason?.contains("tenant 'other'") == true, "\(pushed.reason ?? "")")
            let pulled = try await endpoint.current.pull(
                PullRequest(replica: "other-device", cursor: 0, limit: 100, waitMilliseconds: 0), tenant: "other", user: "olga")
            #expect(pulled.outcome == .changes)

            // Started again with a follower's column wrong for this tenant too: its pushes wait, and a
            // new device of bob's still receives the list bob was given.
            endpoint.restart(SyncServer(store: store, rules: try Self.rules(Self.wrongColumn)))
            try await app.write("alice", "INSERT INTO reminder(id, listID, title) VALUES ('r3', 'L1', 'Bread')")
            _ = await Self.unplaced { try await app.sync("alice").synchronize() }
            try await app.add("bob2", through: .inProcess(endpoint, user: "bob"))
            _ = try await app.sync("bob2").synchronize()
            #expect(try await app.rows("bob2", "reminder").map { $0[0] } == ["r1", "r2"])
            await app.close()
        }
    }
}

/// A server devices reach in this process that can be replaced by another over the same store, as a
/// process started again with other rules.
final class RestartableServer: SyncEndpoint {
    private let server: Lock<SyncServer>

    init(_ server: SyncServer) { self.server = Lock(server) }

    var current: SyncServer { server.withLock { $0 } }

    func restart(_ replacement: SyncServer) { server.withLock { $0 = replacement } }

    func push(_ request: PushRequest, tenant: String) async throws -> PushResponse { try await current.push(request, tenant: tenant) }
    func push(_ request: PushRequest, tenant: String, user: String?) async throws -> PushResponse {
        try await current.push(request, tenant: tenant, user: user)
    }
    func pull(_ request: PullRequest, tenant: String) async throws -> PullResponse { try await current.pull(request, tenant: tenant) }
    func pull(_ request: PullRequest, tenant: String, user: String?) async throws -> PullResponse {
        try await current.pull(request, tenant: tenant, user: user)
    }
    func snapshot(_ request: SnapshotRequest, tenant: String) async throws -> SnapshotResponse {
        try await current.snapshot(request, tenant: tenant)
    }
    func snapshot(_ request: SnapshotRequest, tenant: String, user: String?) async throws -> SnapshotResponse {
        try await current.snapshot(request, tenant: tenant, user: user)
    }
    func membership(_ request: MembershipRequest, action: MembershipAction, tenant: String, user: String) async throws
        -> MembershipResponse
    {
        try await current.membership(request, action: action, tenant: tenant, user: user)
    }
}
