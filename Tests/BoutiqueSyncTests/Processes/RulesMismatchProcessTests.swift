// These run `boutique serve`, which needs the HTTP front end: they are compiled where the package has it.
#if BOUTIQUE_SYNC_HTTP
import BoutiqueSQLite
import BoutiqueTestSupport
import Foundation
import Testing

/// `boutique serve` with rules that do not match the devices' tables, as real processes on
/// 127.0.0.1: a device's push is not placed (nobody else receives any of it), its sync keeps pulling,
/// the server's log says why; started again with the rules fixed, the push lands in its writer's own
/// space. Then the operator's `boutique owner` and `boutique members`, on the server's store.
@Suite(.serialized) struct RulesMismatchProcessTests {
    static let misspelt = #"{"roots": ["remindersLists"], "follows": {"reminder": "listID"}}"#
    static let fixed = #"{"roots": ["remindersList"], "follows": {"reminder": "listID"}}"#

    @Test func aMisspeltRootPlacesNothingUntilFixedOnTheSQLiteStore() async throws {
        try await Self.run(postgres: nil)
    }

    @Test func aMisspeltRootPlacesNothingUntilFixedOnThePostgreSQLStore() async throws {
        try await PostgreSQLTestDatabase.withFresh { database in try await Self.run(postgres: database) }
    }

    static func run(postgres: String?) async throws {
        let workspace = try SyncWorkspace()
        try Data(misspelt.utf8).write(to: workspace.directory.file("misspelt.json"))
        try Data(fixed.utf8).write(to: workspace.directory.file("fixed.json"))
        let tenant = "rules-\(UUID().uuidString.prefix(8))"
        var (server, url) = try await workspace.serve(postgres: postgres, rules: "misspelt.json")
        var tokens: [String: String] = [:]
        for user in ["alice", "bob"] {
            tokens[user] = try await workspace.token(tenant: tenant, user: user)
            try await workspace.tool(["sql", "\(user).db", SharingProcessTests.schema, "--create"])
        }
        func sync(_ user: String) async throws -> ChildProcess.Exit {
            try await workspace.attempt(["sync", "\(user).db", "--server", url, "--token", tokens[user]!, "--tables", SharingProcessTests.tables])
        }
        func rows(_ user: String, _ table: String) throws -> [String] {
            let connection = try Connection(path: workspace.directory.file("\(user).db").path, flags: [.readOnly])
            defer { connection.close() }
            return try connection.cachedRows("SELECT id FROM \(table) ORDER BY id", []).map { $0[0].description }
        }
        func progress(_ user: String) throws -> [String] {
            let connection = try Connection(path: workspace.directory.file("\(user).db").path, flags: [.readOnly])
            defer { connection.close() }
            return try connection.cachedRows("SELECT max(acknowledged), max(bootstrapped) FROM boutique_sync_server", []).first?
                .map(\.description) ?? []
        }

        // Alice's list, shared with nobody, and its reminder.
        try await workspace.tool(["sql", "alice.db", """
            INSERT INTO remindersList VALUES ('L1', 'Secret');
            INSERT INTO reminder VALUES ('r1', 'L1', 'Gift for bob')
            """])
        let refused = try await sync("alice")
        #expect(refused.status != 0, "the push was placed: \(refused.output)")
        #expect(refused.errors.contains("sync rules do not match"), "\(refused.errors)")
        // Nothing acknowledged, and the device pulled all the same.
        #expect(try progress("alice") == ["0", "1"])
        // The operator's log says which tenant, and what does not match.
        try await Self.waitFor(server) { server.errors.contains("rules-mismatch") }
        let mismatch = server.errors.split(separator: "\n").first { $0.contains("rules-mismatch") }.map(String.init) ?? ""
        #expect(mismatch.contains(tenant) && mismatch.contains("remindersLists"), "\(server.errors)")

        // Bob's sync is fine, and brings nothing of alice's.
        let bobs = try await sync("bob")
        #expect(bobs.status == 0, "\(bobs.errors)")
        #expect(try rows("bob", "remindersList").isEmpty)
        #expect(try rows("bob", "reminder").isEmpty)
        if postgres == nil { #expect(try workspace.serverLog(tenant: tenant).changes == 0) }
        // Alice keeps pulling: her next sync is refused again, after it pulled.
        let pulls = Self.lines(of: server, with: ["path=/v1/pull", "status=200", "user=alice"])
        #expect(try await sync("alice").status != 0)
        try await Self.waitFor(server) { Self.lines(of: server, with: ["path=/v1/pull", "status=200", "user=alice"]) > pulls }

        // Started again with the rules fixed: the waiting push goes to alice's own space.
        server.send(SIGTERM)
        #expect(await server.wait(timeout: .seconds(20)).status == 0)
        (server, url) = try await workspace.serve(postgres: postgres, rules: "fixed.json")
        let placed = try await sync("alice")
        #expect(placed.status == 0 && placed.output.contains("pushed 2 changes"), "\(placed.output) \(placed.errors)")
        #expect(try await sync("bob").status == 0)
        #expect(try rows("bob", "remindersList").isEmpty)
        #expect(try rows("bob", "reminder").isEmpty)
        let members = try await workspace.attempt(
            ["members", "--server", url, "--token", tokens["alice"]!, "--table", "remindersList", "--key", "L1"])
        #expect(members.output == "alice owner\n", "\(members.errors)")

        // The operator: the same members from the store, with no token; then bob made the owner.
        try await Self.operatorCommands(workspace, postgres: postgres, tenant: tenant)
        #expect(try await sync("bob").status == 0)
        #expect(try rows("bob", "reminder") == ["r1"])

        server.send(SIGTERM)
        let exit = await server.wait(timeout: .seconds(20))
        #expect(exit.status == 0 && !exit.signalled)
    }

    /// `boutique owner` and `boutique members` on the store, beside the running server: L1 is alice's.
    static func operatorCommands(_ workspace: SyncWorkspace, postgres: String?, tenant: String) async throws {
        var store = ["--store", "server.db"]
        if let postgres {
            // As `serve` reads it: a file only its owner may read.
            try Data(postgres.utf8).write(to: workspace.directory.file("pgurl"))
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: workspace.directory.file("pgurl").path)
            store = ["--postgres-url-file", "pgurl"]
        }
        func members() async throws -> ChildProcess.Exit {
            try await workspace.attempt(["members"] + store + ["--tenant", tenant, "--table", "remindersList", "--key", "L1"])
        }
        let listed = try await members()
        #expect(listed.status == 0 && listed.output == "alice owner\n", "\(listed.output) \(listed.errors)")
        // The store's only tenant needs no naming.
        let only = try await workspace.attempt(["members"] + store + ["--table", "remindersList", "--key", "L1"])
        #expect(only.status == 0 && only.output == "alice owner\n", "\(only.output) \(only.errors)")

        // Mistakes change nothing, and say what is wrong.
        let mistakes: [([String], String)] = [
            (["--tenant", tenant, "--table", "remindersList", "--key", "L9"], "no row with key"),
            (["--tenant", tenant, "--table", "remindersLists", "--key", "L1"], "no synced table 'reminderslists'"),
            (["--tenant", "no-such-tenant", "--table", "remindersList", "--key", "L1"], "no tenant 'no-such-tenant'"),
            (["--tenant", tenant, "--table", "reminder", "--key", "r1"], "not a space of its own"),
        ]
        for (arguments, message) in mistakes {
            let refused = try await workspace.attempt(["owner"] + store + arguments + ["--user", "bob"])
            #expect(refused.status == 1, "\(arguments): \(refused.output)")
            #expect(refused.errors.contains(message), "\(arguments): \(refused.errors)")
        }
        #expect(try await members().output == "alice owner\n")

        let owned = try await workspace.attempt(["owner"] + store + ["--tenant", tenant, "--table", "remindersList", "--key", "L1", "--user", "bob"])
        #expect(owned.status == 0 && owned.output == "bob owner\nalice editor\n", "\(owned.output) \(owned.errors)")
        #expect(try await members().output == "bob owner\nalice editor\n")
    }

    /// How many lines of the server's log hold each of `texts`.
    static func lines(of server: ChildProcess, with texts: [String]) -> Int {
        server.errors.split(separator: "\n").count { line in texts.allSatisfy { line.contains($0) } }
    }

    /// Waits until the server's log is as `logged` says (a request's line is written as it ends,
    /// which may be just after its client had the answer).
    static func waitFor(_ server: ChildProcess, _ logged: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(syncHangDeadline(seconds: 10))
        while !logged() {
            guard ContinuousClock.now < deadline, server.isRunning else {
                throw ChildProcessError("the server did not log what was expected: \(server.errors)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
#endif
