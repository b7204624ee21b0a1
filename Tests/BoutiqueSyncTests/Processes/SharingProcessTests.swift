// These run `boutique serve`, which needs the HTTP front end: they are compiled where the package has it.
#if BOUTIQUE_SYNC_HTTP
import BoutiqueSQLite
import BoutiqueTestSupport
import Foundation
import Testing

/// Sharing between users as real processes on 127.0.0.1: `boutique serve --rules`, three users'
/// device files synced with `boutique sync`, and `boutique share`, `unshare` and `members`.
@Suite(.serialized) struct SharingProcessTests {
    static let schema = """
        CREATE TABLE remindersList(id TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL DEFAULT '');
        CREATE TABLE reminder(id TEXT PRIMARY KEY NOT NULL, listID TEXT NOT NULL REFERENCES remindersList(id) ON DELETE CASCADE,
            title TEXT NOT NULL DEFAULT '')
        """
    static let tables = "remindersList,reminder"

    @Test func shareViewerRefusedEditorAcceptedMoveOutAndRevocationOnTheSQLiteStore() async throws {
        try await Self.run(postgres: nil)
    }

    @Test func shareViewerRefusedEditorAcceptedMoveOutAndRevocationOnThePostgreSQLStore() async throws {
        try await PostgreSQLTestDatabase.withFresh { database in try await Self.run(postgres: database) }
    }

    static func run(postgres: String?) async throws {
        let workspace = try SyncWorkspace()
        try Data(#"{"roots": ["remindersList"], "follows": {"reminder": "listID"}}"#.utf8).write(to: workspace.directory.file("rules.json"))
        let tenant = "sharing-\(UUID().uuidString.prefix(8))"
        let (server, url) = try await workspace.serve(postgres: postgres, rules: "rules.json")
        var tokens: [String: String] = [:]
        for user in ["ana", "bob", "cleo", "dan"] {
            tokens[user] = try await workspace.token(tenant: tenant, user: user)
            try await workspace.tool(["sql", "\(user).db", schema, "--create"])
        }
        func sync(_ user: String) async throws -> String {
            try await workspace.tool(["sync", "\(user).db", "--server", url, "--token", tokens[user]!, "--tables", tables])
        }
        func reminders(_ user: String) throws -> [[String]] {
            let connection = try Connection(path: workspace.directory.file("\(user).db").path, flags: [.readOnly])
            defer { connection.close() }
            return try connection.cachedRows("SELECT id, listID, title FROM reminder ORDER BY id", []).map { $0.map(\.description) }
        }
        func membership(_ command: String, _ user: String, _ extra: [String] = []) async throws -> ChildProcess.Exit {
            try await workspace.attempt(
                [command, "--server", url, "--token", tokens[user]!, "--table", "remindersList", "--key", "L1"] + extra)
        }

        try await workspace.tool(["sql", "ana.db", """
            INSERT INTO remindersList VALUES ('L1', 'Groceries'), ('L2', 'Ana only');
            INSERT INTO reminder VALUES ('r1', 'L1', 'Milk'), ('r2', 'L1', 'Eggs')
            """])
        _ = try await sync("ana")

        let stolen = try await membership("share", "bob", ["--with", "bob", "--role", "editor"])
        #expect(stolen.status != 0, "a non-owner's share is refused")
        #expect(stolen.errors.contains("not a member"), "with the server's reason: \(stolen.errors)")

        let shared = try await membership("share", "ana", ["--with", "bob", "--role", "viewer"])
        #expect(shared.status == 0, "\(shared.errors)")
        #expect(shared.output == "ana owner\nbob viewer (not connected yet)\n", "no device of bob's has synced yet")
        #expect(try await membership("share", "ana", ["--with", "cleo", "--role", "editor"]).status == 0)
        _ = try await sync("bob")
        _ = try await sync("cleo")
        #expect(try reminders("bob") == [["r1", "L1", "Milk"], ["r2", "L1", "Eggs"]])
        let listed = try await membership("members", "bob")
        #expect(listed.output == "ana owner\nbob viewer\ncleo editor\n")

        // The viewer's edit is refused, said, put back; the tool still exits 0.
        try await workspace.tool(["sql", "bob.db", "UPDATE reminder SET title = 'Oat milk' WHERE id = 'r1'"])
        let refused = try await sync("bob")
        #expect(refused.contains("refused 1 transaction"), "\(refused)")
        #expect(refused.contains("viewer"))
        #expect(try reminders("bob").first == ["r1", "L1", "Milk"])

        // The editor's is accepted and reaches everyone.
        try await workspace.tool(["sql", "cleo.db", "UPDATE reminder SET title = 'Whole milk' WHERE id = 'r1'"])
        _ = try await sync("cleo")
        _ = try await sync("ana")
        _ = try await sync("bob")
        #expect(try reminders("ana").first == ["r1", "L1", "Whole milk"])
        #expect(try reminders("bob").first == ["r1", "L1", "Whole milk"])

        // Moving a reminder to Ana's own list takes it off the members' devices. Cleo's edit of it,
        // made before she heard, is refused in words that say nothing of Ana's list: the same words
        // as Dan's insert under a key that is taken in a list he is not in.
        try await workspace.tool(["sql", "ana.db", "UPDATE reminder SET listID = 'L2' WHERE id = 'r2'"])
        _ = try await sync("ana")
        try await workspace.tool(["sql", "cleo.db", "UPDATE reminder SET title = 'Brown eggs' WHERE id = 'r2'"])
        let moved = Self.refusalReasons(try await sync("cleo"))
        #expect(moved.count == 1, "\(moved)")
        for secret in ["L2", "l2", "remindersList", "reminderslist", "ana", "not a member"] {
            #expect(!(moved.first ?? "").contains(secret), "\(moved)")
        }
        try await workspace.tool(["sql", "dan.db", "INSERT INTO remindersList VALUES ('D1', 'Dan''s')"])
        try await workspace.tool(["sql", "dan.db", "INSERT INTO reminder VALUES ('r1', 'D1', 'Mine?')"])
        let taken = Self.refusalReasons(try await sync("dan"))
        // Each is told in their own name, and in the same words otherwise.
        #expect(taken.count == 1 && taken.map { $0.replacingOccurrences(of: "'dan'", with: "'cleo'") } == moved, "\(taken) \(moved)")
        #expect(try reminders("cleo") == [["r1", "L1", "Whole milk"]])

        // Revocation: Bob's device deletes the list's rows, and pushes nothing of it.
        #expect(try await membership("unshare", "ana", ["--with", "bob"]).output == "ana owner\ncleo editor\n")
        _ = try await sync("bob")
        #expect(try reminders("bob").isEmpty)
        _ = try await sync("ana")
        #expect(try reminders("ana").count == 2)

        // A UUID key as `uuidString` writes it (upper case) names the list stored in lowercase.
        let id = UUID()
        try await workspace.tool(["sql", "ana.db", "INSERT INTO remindersList VALUES ('\(id.uuidString.lowercased())', 'Trip')"])
        _ = try await sync("ana")
        let byUUID = try await workspace.attempt(
            ["share", "--server", url, "--token", tokens["ana"]!, "--table", "remindersList", "--key", id.uuidString, "--with", "bob", "--role", "viewer"])
        #expect(byUUID.status == 0 && byUUID.output == "ana owner\nbob viewer\n", "\(byUUID.errors)")

        server.send(SIGTERM)
        let exit = await server.wait(timeout: .seconds(20))
        #expect(exit.status == 0 && !exit.signalled)
    }

    /// The reasons `boutique sync` printed for the transactions the server refused, one each.
    static func refusalReasons(_ output: String) -> [String] {
        output.split(separator: "\n").filter { $0.hasPrefix("  transaction ") }.map { line in
            line.firstRange(of: "): ").map { String(line[$0.upperBound...]) } ?? String(line)
        }
    }

    /// Rules naming a table the devices do not sync start the server with a warning (the tenants they
    /// match are served), and place none of that tenant's pushed rows; rules that cannot be read stop it.
    @Test func rulesNamingATableNoDeviceHasAreWarnedAboutAndPlaceNothing() async throws {
        let workspace = try SyncWorkspace()
        let token = try await workspace.token()
        let (server, url) = try await workspace.serve()
        try await workspace.tool(["sql", "a.db", Self.schema, "--create"])
        _ = try await workspace.tool(["sync", "a.db", "--server", url, "--token", token, "--tables", Self.tables])
        server.send(SIGTERM)
        _ = await server.wait(timeout: .seconds(20))
        try Data(#"{"roots": ["folder"]}"#.utf8).write(to: workspace.directory.file("wrong.json"))
        let (warned, warnedURL) = try await workspace.serve(rules: "wrong.json")
        try await RulesMismatchProcessTests.waitFor(warned) { warned.errors.contains("warning: tenant 'acme'") }
        #expect(warned.errors.contains("'folder'"), "\(warned.errors)")
        try await workspace.tool(["sql", "a.db", "INSERT INTO remindersList VALUES ('L1', 'Groceries')"])
        let refused = try await workspace.attempt(["sync", "a.db", "--server", warnedURL, "--token", token, "--tables", Self.tables])
        #expect(refused.status != 0 && refused.errors.contains("sync rules do not match"), "\(refused.errors)")
        #expect(try workspace.serverLog().changes == 0)
        warned.send(SIGTERM)
        #expect(await warned.wait(timeout: .seconds(20)).status == 0)
        try Data(#"{"roots": ["remindersList"], "shared": true}"#.utf8).write(to: workspace.directory.file("hostile.json"))
        let hostile = try await workspace.attempt(["serve", "--port", "0", "--secret-file", "secret", "--store", "server.db", "--rules", "hostile.json"])
        #expect(hostile.status != 0)
        #expect(hostile.errors.contains("shared"), "\(hostile.errors)")
    }
}
#endif
