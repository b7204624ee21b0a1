// These run `boutique serve`, which needs the HTTP front end: they are compiled where the package has it.
#if BOUTIQUE_SYNC_HTTP
import BoutiqueSQLite
import BoutiqueTestSupport
import Foundation
import Testing

/// Two `boutique sync` devices editing the same note body through `boutique sql` while the server is
/// down, then syncing: both edits are on both, byte for byte.
@Suite(.serialized) struct CollaborativeTextProcessTests {
    static let body = "Milk\nEggs\nBread, teh good kind\n"

    func sync(_ workspace: SyncWorkspace, _ device: String, url: String, token: String) async throws -> String {
        try await workspace.tool(["sync", device, "--server", url, "--token", token, "--tables", "note", "--collaborative-text", "note.body"])
    }

    @Test func offlineEditsOfOneBodyOnTwoDeviceProcessesBothSurvive() async throws {
        let workspace = try SyncWorkspace()
        var (server, url) = try await workspace.serve()
        let token = try await workspace.token()
        for name in ["a.db", "b.db"] { try await workspace.makeDevice(name) }
        try await workspace.tool(["sql", "a.db", "INSERT INTO note VALUES ('n1', 'Groceries', '\(Self.body)', 'a')"])
        for name in ["a.db", "b.db"] { _ = try await sync(workspace, name, url: url, token: token) }
        #expect(try workspace.notes("b.db").first?[2] == Self.body)

        // The server goes away; each device edits offline, and its sync fails without losing the edit.
        server.send(SIGTERM)
        _ = await server.wait(timeout: .seconds(60))
        try await workspace.tool(["sql", "a.db", "UPDATE note SET body = 'Sunday' || char(10) || body WHERE id = 'n1'"])
        try await workspace.tool(["sql", "b.db", "UPDATE note SET body = replace(body, 'teh', 'the') WHERE id = 'n1'"])
        let offline = try await workspace.attempt(
            ["sync", "a.db", "--server", url, "--token", token, "--tables", "note", "--collaborative-text", "note.body"])
        #expect(offline.status != 0, "no server to reach")

        (server, url) = try await workspace.serve()
        for name in ["a.db", "b.db", "a.db"] { _ = try await sync(workspace, name, url: url, token: token) }
        let merged = "Sunday\nMilk\nEggs\nBread, the good kind\n"
        #expect(try workspace.notes("a.db").first?[2] == merged)
        #expect(try workspace.notes("b.db").first?[2] == merged)

        // A device naming no collaborative column is refused with the reason, and changes nothing.
        try await workspace.makeDevice("c.db")
        let plain = try await workspace.attempt(["sync", "c.db", "--server", url, "--token", token, "--tables", "note"])
        #expect(plain.status != 0)
        #expect((plain.output + plain.errors).contains("collaborative text columns body"), "\(plain.output) \(plain.errors)")
        #expect(try workspace.notes("c.db").isEmpty)
        server.send(SIGTERM)
        _ = await server.wait(timeout: .seconds(60))
    }
}
#endif
