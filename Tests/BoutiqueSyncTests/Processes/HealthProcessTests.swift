// These run `boutique serve`, which needs the HTTP front end: they are compiled where the package has it.
#if BOUTIQUE_SYNC_HTTP
import BoutiqueTestSupport
import Foundation
import Testing

/// `GET /healthz` and `GET /readyz` of `boutique serve`: live while it runs, ready while its store
/// answers and it is not draining.
@Suite(.serialized) struct HealthProcessTests {
    static func get(_ path: String, at url: String) async throws -> (status: Int, body: String) {
        let answer = try await RawHTTP.send(URL(string: url)!, path, method: "GET")
        return (answer.status, String(decoding: answer.body, as: UTF8.self))
    }

    @Test func readinessFailsWhileDrainingAfterSIGTERMAndRequestsAreStillServed() async throws {
        let workspace = try SyncWorkspace()
        let (server, url) = try await workspace.serve(flags: ["--drain", "5m"])
        #expect(try await Self.get("healthz", at: url) == (200, #"{"status":"ok"}"#))
        #expect(try await Self.get("readyz", at: url) == (200, #"{"status":"ready"}"#))
        #expect(try await Self.get("readyz", at: url + "/v1").status == 404)

        server.send(SIGTERM)
        try await waitUntil("/readyz answers 503") { try await Self.get("readyz", at: url).status == 503 }
        let draining = try await Self.get("readyz", at: url)
        #expect(draining.body.contains("draining"), "\(draining.body)")
        #expect(try await Self.get("healthz", at: url).status == 200)
        // Still serving devices while it drains.
        try await workspace.makeDevice("a.db")
        try await workspace.tool(["sql", "a.db", "INSERT INTO note VALUES ('n1', 'While draining', NULL, 'a')"])
        let pushed = try await workspace.sync("a.db", server: url, token: try await workspace.token())
        #expect(pushed.contains("pushed 1 change"), "\(pushed)")
        #expect(server.isRunning)
        server.send(SIGKILL)
        _ = await server.wait()
    }

    /// A throwaway PostgreSQL cluster of the test's own (never the shared one), stopped under a
    /// running server: `/readyz` turns 503 while `/healthz` stays 200, and the log has the store's
    /// error where the answer has none of it.
    @Test func readinessFailsWhenPostgreSQLIsUnreachable() async throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Scripts/postgres-test-cluster.sh")
        guard FileManager.default.isExecutableFile(atPath: "/usr/lib/postgresql/15/bin/initdb") else {
            print("◇ readinessFailsWhenPostgreSQLIsUnreachable did not run: PostgreSQL 15's initdb is not installed")
            return
        }
        let cluster = "/tmp/boutique-readyz-\(UUID().uuidString.prefix(8))"
        let started = try await ChildProcess.run(executable: URL(fileURLWithPath: "/bin/bash"), [script.path, "start", cluster])
        try #require(started.status == 0, "\(started.errors)")
        let postgres = started.output.trimmingCharacters(in: .whitespacesAndNewlines)
        var stopped = false
        defer {
            if !stopped { _ = try? Process.run(URL(fileURLWithPath: "/bin/bash"), arguments: [script.path, "stop", cluster]) }
        }
        let workspace = try SyncWorkspace()
        let (server, url) = try await workspace.serve(postgres: postgres)
        #expect(try await Self.get("readyz", at: url) == (200, #"{"status":"ready"}"#))

        let stop = try await ChildProcess.run(executable: URL(fileURLWithPath: "/bin/bash"), [script.path, "stop", cluster])
        stopped = true
        try #require(stop.status == 0, "\(stop.errors)")
        try await waitUntil("/readyz answers 503") { try await Self.get("readyz", at: url).status == 503 }
        let unready = try await Self.get("readyz", at: url)
        #expect(unready.body.contains("the store does not answer"), "\(unready.body)")
        #expect(!unready.body.contains("127.0.0.1"), "the answer does not name the database's address: \(unready.body)")
        #expect(try await Self.get("healthz", at: url).status == 200)
        try await waitUntil("the store's error is logged") { server.errors.contains("store-failure") && server.errors.contains("/readyz") }
        server.send(SIGTERM)
        _ = await server.wait()
    }
}
#endif
