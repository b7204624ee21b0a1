// These run `boutique serve`, which needs the HTTP front end: they are compiled where the package has it.
#if BOUTIQUE_SYNC_HTTP
import BoutiqueSQLite
import BoutiqueTestSupport
import Foundation
import Testing

/// `boutique sync` of one transaction larger than the server takes in one request: it goes in parts,
/// arrives whole on another device, and the next small write follows it.
@Suite(.serialized) struct LargeTransactionProcessTests {
    @Test func anImportLargerThanARequestSyncs() async throws {
        try await Self.run(postgres: nil)
    }

    @Test func anImportLargerThanARequestSyncsOnPostgreSQL() async throws {
        try await PostgreSQLTestDatabase.withFresh { database in try await Self.run(postgres: database) }
    }

    static func run(postgres: String?) async throws {
        let workspace = try SyncWorkspace()
        // Requests of at most 1 MiB: the import below is about twice that as one push.
        let (server, url) = try await workspace.serve(postgres: postgres, flags: ["--max-body-bytes", "1048576"])
        let token = try await workspace.token()
        for device in ["a.db", "b.db"] { try await workspace.makeDevice(device) }
        _ = try await workspace.sync("a.db", server: url, token: token)
        try await workspace.tool([
            "sql", "a.db",
            """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000)
            INSERT INTO note SELECT printf('n%05d', i), 'Imported note ' || i, printf('%.300c', 'x'), 'a' FROM n
            """,
        ])
        let pushed = try await workspace.sync("a.db", server: url, token: token)
        #expect(pushed.contains("pushed 5,000 changes") || pushed.contains("pushed 5000 changes"), "\(pushed)")

        try await workspace.tool(["sql", "a.db", "INSERT INTO note VALUES ('after', 'One more', NULL, 'a')"])
        let next = try await workspace.sync("a.db", server: url, token: token)
        #expect(next.contains("pushed 1 change"), "\(next)")

        let pulled = try await workspace.sync("b.db", server: url, token: token)
        #expect(!pulled.contains("refused"), "\(pulled)")
        #expect(try workspace.notes("b.db") == workspace.notes("a.db"))
        #expect(try workspace.notes("b.db").count == 5_001)
        server.send(SIGTERM)
        _ = await server.wait(timeout: .seconds(20))
    }
}
#endif
