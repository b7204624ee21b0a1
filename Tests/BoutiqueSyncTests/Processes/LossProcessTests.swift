// These run `boutique serve`, which needs the HTTP front end: they are compiled where the package has it.
#if BOUTIQUE_SYNC_HTTP
import BoutiqueSQLite
import BoutiqueTestSupport
import Foundation
import Testing

/// What a device is told it lost, as real processes on 127.0.0.1: `boutique serve` on either store,
/// device files synced with `boutique sync`, which prints the losses, refusals and departures sync
/// reports.
@Suite(.serialized) struct LossProcessTests {
    @Test func concurrentAndSequentialEditsRefusedWorkAndRowsMovedAwayOnTheSQLiteStore() async throws {
        try await Self.run(postgres: nil)
    }

    @Test func concurrentAndSequentialEditsRefusedWorkAndRowsMovedAwayOnThePostgreSQLStore() async throws {
        try await PostgreSQLTestDatabase.withFresh { database in try await Self.run(postgres: database) }
    }

    static let schema = """
        CREATE TABLE remindersList(id TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL DEFAULT '');
        CREATE TABLE reminder(id TEXT PRIMARY KEY NOT NULL, listID TEXT NOT NULL REFERENCES remindersList(id) ON DELETE CASCADE,
            title TEXT NOT NULL DEFAULT '')
        """

    static func run(postgres: String?) async throws {
        let workspace = try SyncWorkspace()
        try Data(#"{"roots": ["remindersList"], "follows": {"reminder": "listID"}}"#.utf8).write(to: workspace.directory.file("rules.json"))
        let tenant = "losses-\(UUID().uuidString.prefix(8))"
        let (server, url) = try await workspace.serve(postgres: postgres, rules: "rules.json")
        var tokens: [String: String] = [:]
        for user in ["ana", "bob"] { tokens[user] = try await workspace.token(tenant: tenant, user: user) }
        // Ana has a phone and a laptop; Bob one device.
        let owners = ["phone.db": "ana", "laptop.db": "ana", "bob.db": "bob"]
        for file in owners.keys { try await workspace.tool(["sql", file, schema, "--create"]) }
        func sync(_ file: String) async throws -> String {
            try await workspace.tool(["sync", file, "--server", url, "--token", tokens[owners[file]!]!, "--tables", "remindersList,reminder"])
        }
        func sql(_ file: String, _ text: String) async throws { try await workspace.tool(["sql", file, text]) }
        func lossLines(_ output: String) -> [String] {
            output.split(separator: "\n").map(String.init).filter { $0.contains("(editBeatenByConcurrentEdit)") }
        }

        try await sql("phone.db", "INSERT INTO remindersList VALUES ('L1', 'Groceries'); INSERT INTO reminder VALUES ('r1', 'L1', 'Milk'), ('r2', 'L1', 'Eggs')")
        _ = try await sync("phone.db")
        _ = try await sync("laptop.db")

        // The same title changed on both devices, neither having the other's: the earlier one loses,
        // and its device is told once, with the title it had written.
        try await sql("phone.db", "UPDATE reminder SET title = 'Oat milk' WHERE id = 'r1'")
        try await Task.sleep(for: .milliseconds(5))
        try await sql("laptop.db", "UPDATE reminder SET title = 'Soy milk' WHERE id = 'r1'")
        _ = try await sync("phone.db")
        let laptopFirst = try await sync("laptop.db")
        let phoneAfter = try await sync("phone.db")
        #expect(lossLines(laptopFirst).isEmpty, "\(laptopFirst)")
        #expect(lossLines(phoneAfter) == ["  reminder r1 (editBeatenByConcurrentEdit): title = Oat milk"], "\(phoneAfter)")
        #expect(lossLines(try await sync("phone.db")).isEmpty, "reported once")
        #expect(lossLines(try await sync("laptop.db")).isEmpty)

        // An edit made after pulling the other device's is no loss for it.
        try await sql("phone.db", "UPDATE reminder SET title = 'Eggs, a dozen' WHERE id = 'r2'")
        _ = try await sync("phone.db")
        _ = try await sync("laptop.db")
        try await sql("laptop.db", "UPDATE reminder SET title = 'Eggs, two dozen' WHERE id = 'r2'")
        let sequentialLaptop = try await sync("laptop.db")
        let sequentialPhone = try await sync("phone.db")
        #expect(lossLines(sequentialLaptop).isEmpty && lossLines(sequentialPhone).isEmpty, "\(sequentialLaptop) \(sequentialPhone)")

        // Bob, an editor, moves a reminder to a list of his own: Ana's devices are told which row left,
        // not where it went.
        let shared = try await workspace.attempt(
            ["share", "--server", url, "--token", tokens["ana"]!, "--table", "remindersList", "--key", "L1", "--with", "bob", "--role", "editor"])
        #expect(shared.status == 0, "\(shared.errors)")
        try await sql("bob.db", "INSERT INTO remindersList VALUES ('B1', 'Bob''s')")
        _ = try await sync("bob.db")
        try await sql("bob.db", "UPDATE reminder SET listID = 'B1' WHERE id = 'r2'")
        _ = try await sync("bob.db")
        let moved = try await sync("phone.db")
        #expect(moved.contains("1 row moved by another user to where this user does not see:\n  reminder r2\n"), "\(moved)")
        #expect(!moved.contains("B1"), "the destination is not told: \(moved)")

        // Bob edits offline while Ana unshares: the refusal comes back with what Bob wrote.
        try await sql("bob.db", "UPDATE reminder SET title = 'Rice milk' WHERE id = 'r1'")
        let unshared = try await workspace.attempt(
            ["unshare", "--server", url, "--token", tokens["ana"]!, "--table", "remindersList", "--key", "L1", "--with", "bob"])
        #expect(unshared.status == 0, "\(unshared.errors)")
        let refused = try await sync("bob.db")
        #expect(refused.contains("refused 1 transaction"), "\(refused)")
        #expect(refused.contains("    written: title = Rice milk\n"), "\(refused)")

        server.send(SIGTERM)
        let exit = await server.wait(timeout: .seconds(20))
        #expect(exit.status == 0 && !exit.signalled)
    }
}
#endif
