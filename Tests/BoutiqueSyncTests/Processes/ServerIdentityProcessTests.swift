// These run `boutique serve`, which needs the HTTP front end: they are compiled where the package has it.
#if BOUTIQUE_SYNC_HTTP
import BoutiqueSQLite
import BoutiqueTestSupport
import Foundation
import Testing

/// `boutique sync` against `boutique serve`: the server's address written another way, or the server
/// restarted on another port, reaches the progress the file made with it; another store behind the
/// same address is said to be a new server, and downloaded from.
@Suite(.serialized) struct ServerIdentityProcessTests {
    @Test func theSameServerAtAnotherAddressIsNotDownloadedAgain() async throws {
        try await Self.run(postgres: nil)
    }

    @Test func theSameServerAtAnotherAddressIsNotDownloadedAgainOnPostgreSQL() async throws {
        try await PostgreSQLTestDatabase.withFresh { database in try await Self.run(postgres: database) }
    }

    static func replica(of device: String, in workspace: SyncWorkspace) throws -> String {
        let connection = try Connection(path: workspace.directory.file(device).path, flags: [.readOnly])
        defer { connection.close() }
        return try connection.cachedRows("SELECT replica FROM boutique_sync_replica", []).first?.first?.description ?? ""
    }

    static func run(postgres: String?) async throws {
        let workspace = try SyncWorkspace()
        var (server, url) = try await workspace.serve(postgres: postgres)
        let token = try await workspace.token()
        for device in ["a.db", "b.db"] { try await workspace.makeDevice(device) }
        try await workspace.tool([
            "sql", "a.db",
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 120) INSERT INTO note SELECT 'n' || i, 'Note ' || i, NULL, 'a' FROM n",
        ])
        _ = try await workspace.sync("a.db", server: url, token: token)
        let first = try await workspace.sync("b.db", server: url, token: token)
        #expect(first.contains("pulled 120 changes"), "\(first)")
        let replicaID = try replica(of: "b.db", in: workspace)

        // The same server, its address written otherwise.
        let port = try #require(URL(string: url)?.port)
        for other in ["http://localhost:\(port)/", "http://127.0.0.1:\(port)/"] {
            let again = try await workspace.sync("b.db", server: other, token: token)
            #expect(again.contains("pulled 0 changes"), "\(other): \(again)")
            #expect(!again.contains("not the server"), "\(other): \(again)")
        }

        // Restarted on another port, on the same store: a write of b's goes once, nothing comes again.
        server.send(SIGTERM)
        _ = await server.wait(timeout: .seconds(20))
        (server, url) = try await workspace.serve(postgres: postgres)
        #expect(url != "http://127.0.0.1:\(port)")
        try await workspace.tool(["sql", "b.db", "INSERT INTO note VALUES ('b1', 'From b', NULL, 'b')"])
        let moved = try await workspace.sync("b.db", server: url, token: token)
        #expect(moved.contains("pushed 1 change, pulled 0 changes"), "\(moved)")
        #expect(try replica(of: "b.db", in: workspace) == replicaID, "the same replica id throughout")
        server.send(SIGTERM)
        _ = await server.wait(timeout: .seconds(20))

        // Another store at the address b synced with last: a new server, said so and downloaded from.
        guard postgres == nil else { return }
        let newPort = try #require(URL(string: url)?.port)
        let (other, otherURL) = try await workspace.serve(port: newPort, store: "other.db")
        #expect(otherURL == url)
        try await workspace.makeDevice("c.db")
        try await workspace.tool(["sql", "c.db", "INSERT INTO note VALUES ('c1', 'On the new server', NULL, 'c')"])
        _ = try await workspace.sync("c.db", server: otherURL, token: token)
        let switched = try await workspace.sync("b.db", server: otherURL, token: token)
        #expect(switched.contains("is not the server this file last synced with there"), "\(switched)")
        #expect(try workspace.notes("b.db").contains { $0[0] == "c1" }, "the new server's rows were downloaded")
        other.send(SIGTERM)
        _ = await other.wait(timeout: .seconds(20))
    }
}
#endif
