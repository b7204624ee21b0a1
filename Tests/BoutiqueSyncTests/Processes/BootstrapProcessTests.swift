// These run `boutique serve`, which needs the HTTP front end: they are compiled where the package has it.
#if BOUTIQUE_SYNC_HTTP
import BoutiqueSQLite
import BoutiqueTestSupport
import Foundation
import Testing

/// A `boutique sync` process killed with `kill -9` in the middle of a new device's bootstrap keeps the
/// pages it committed, and the next run resumes after them: every row arrives, once.
@Suite(.serialized) struct BootstrapProcessTests {
    @Test func aBootstrapKilledMidwayResumesAndEveryRowArrivesOnce() async throws {
        let workspace = try SyncWorkspace()
        let (server, url) = try await workspace.serve()
        let token = try await workspace.token()
        try await workspace.makeDevice("a.db")
        try await workspace.makeDevice("b.db")
        for batch in 0..<2 { try await SyncProcessTests.bulkWrites(workspace, device: "a.db", prefix: "r\(batch)") }
        _ = try await workspace.sync("a.db", server: url, token: token)

        // The device reaches the server through a relay that holds its fourth page request: the
        // third page is the last to arrive, whatever the machine's speed, and the first is committed
        // (pages merge one after the other, and a page is asked for while the one before it merges).
        let relay = try HoldingRelay(forwardingTo: try #require(URLComponents(string: url)?.port), holding: "POST /v1/snapshot", occurrence: 4)
        defer { relay.stop() }
        let relayed = "http://127.0.0.1:\(relay.port)"
        let device = try ChildProcess("boutique", ["sync", "b.db", "--server", relayed, "--token", token, "--tables", "note"], in: workspace.url)
        _ = try await device.line(startingWith: "bootstrapping: 3000 of 20000 rows")
        device.send(SIGKILL)
        #expect(await device.wait().signalled, "killed before the bootstrap ended")
        let kept = try workspace.notes("b.db").count
        #expect(kept >= 1_000 && kept <= 3_000, "the committed pages survived the kill: \(kept) rows")

        relay.release()
        let output = try await workspace.sync("b.db", server: relayed, token: token)
        #expect(output.contains("resuming the bootstrap after \(kept) rows"), "\(output)")
        // The run's own rows, their rate and their bytes.
        #expect(output.contains("bootstrapped \(20_000 - kept) rows in ") && output.contains(" rows/s, ") && output.contains(" bytes on the wire ("),
                "\(output)")
        let a = try workspace.notes("a.db")
        #expect(a.count == 20_000)
        #expect(try workspace.notes("b.db") == a, "every row arrived, once")
        let log = try workspace.serverLog()
        #expect(log.changes == 20_000, "the device pushed nothing back: \(log)")
        server.send(SIGTERM)
        _ = await server.wait(timeout: .seconds(20))
    }
}
#endif
