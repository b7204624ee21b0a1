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

    /// Pushing an import and folding it into the file's row states holds a bounded part of it in
    /// memory: `boutique sync` of ten times the rows peaks about as high.
    @Test func syncingAnImportTenTimesLargerTakesNoMoreMemory() async throws {
        let workspace = try SyncWorkspace()
        let (server, url) = try await workspace.serve()
        var peaks: [Int: Int] = [:]
        // Memory handed back as soon as it is freed, so that the tool's peak is what it held: large
        // blocks in mappings of their own and two malloc arenas (glibc; otherwise each thread that
        // encoded a part keeps its arena's pages), none kept in quarantine (AddressSanitizer).
        let sanitizer = ProcessInfo.processInfo.environment["ASAN_OPTIONS"].map { $0 + ":" } ?? ""
        let environment = ["MALLOC_MMAP_THRESHOLD_": "65536", "MALLOC_ARENA_MAX": "2", "ASAN_OPTIONS": sanitizer + "quarantine_size_mb=0"]
        for rows in [3_000, 30_000] {
            let device = "import-\(rows).db"
            // A tenant of its own: the other device's rows do not come into its sync.
            let token = try await workspace.token(tenant: "import-\(rows)")
            try await workspace.makeDevice(device)
            _ = try await workspace.sync(device, server: url, token: token)
            try await workspace.tool([
                "sql", device,
                """
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rows))
                INSERT INTO note SELECT printf('n%06d', i), 'Imported note ' || i, printf('%.1000c', 'x'), 'a' FROM n
                """,
            ])
            let exit = try await workspace.attempt(
                ["sync", device, "--server", url, "--token", token, "--tables", "note"], environment: environment, timeout: .seconds(600),
                measuringPeakMemory: true)
            #expect(exit.status == 0 && exit.output.contains("pushed \(rows) changes"), "\(exit.output) \(exit.errors)")
            peaks[rows] = exit.peakResidentBytes
        }
        let small = try #require(peaks[3_000])
        let large = try #require(peaks[30_000])
        #expect(small > 0)
        // Folded into their states with the larger page cache a pull's changes get, the rows' pages
        // took 55 MB more for the larger import (a debug build; up to the cache's 64 MB). Under a sanitizer (CI names it in BOUTIQUE_TEST_SANITIZER) allocations carry shadow
        // memory and are freed late: three times the bound.
        let sanitized = TestBudget.isSanitized
        let bound = (12 << 20) * (sanitized ? 3 : 1)
        #expect(large - small < bound, "30,000 rows peaked at \(large >> 20) MB, 3,000 at \(small >> 20) MB (bound: \(bound >> 20) MB more)")
        server.send(SIGTERM)
        _ = await server.wait(timeout: .seconds(20))
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
