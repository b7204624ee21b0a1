// These run `boutique serve`, which needs the HTTP front end: they are compiled where the package has it.
#if BOUTIQUE_SYNC_HTTP
import BoutiqueTestSupport
import Foundation
import Testing

/// `boutique serve --metrics-port`: Prometheus' text format on 127.0.0.1, every metric named, the
/// counters moving with devices' requests, and no tenant, user or token in it.
@Suite(.serialized) struct MetricsProcessTests {
    static let names = [
        "boutique_http_requests_total", "boutique_http_request_duration_seconds", "boutique_pushed_changes_total",
        "boutique_pulled_changes_total", "boutique_refusals_total", "boutique_long_polls_waiting", "boutique_connections_open",
        "boutique_tenants_active", "boutique_store_errors_total", "boutique_log_entries", "boutique_gc_removed_total",
    ]

    static func scrape(_ url: URL) async throws -> String {
        let answer = try await RawHTTP.send(url.deletingLastPathComponent(), url.lastPathComponent, method: "GET")
        #expect(answer.status == 200)
        return String(decoding: answer.body, as: UTF8.self)
    }

    /// The value of the sample written `series` (`name{labels}`), `nil` when there is none.
    static func value(_ series: String, in text: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(series + " ") }.flatMap { Double($0.dropFirst(series.count + 1)) }
    }

    @Test func metricsAreNamedAndMoveWithRequests() async throws {
        let workspace = try SyncWorkspace()
        let (server, url) = try await workspace.serve(flags: ["--metrics-port", "0"])
        let line = try await server.line(startingWith: "metrics on ")
        let metrics = try #require(URL(string: String(line.dropFirst("metrics on ".count))))
        #expect(metrics.host == "127.0.0.1" && metrics.path == "/metrics", "\(metrics)")
        #expect(try await RawHTTP.send(URL(string: url)!, "metrics", method: "GET").status == 404, "not on the devices' port")

        let token = try await workspace.token()
        for device in ["a.db", "b.db"] { try await workspace.makeDevice(device) }
        try await workspace.tool(["sql", "a.db", "INSERT INTO note VALUES ('n1', 'One', NULL, 'a'), ('n2', 'Two', NULL, 'a')"])
        _ = try await workspace.sync("a.db", server: url, token: token)
        _ = try await workspace.sync("b.db", server: url, token: token)
        #expect(try await RawHTTP.send(URL(string: url)!, "v1/pull", token: "forged", body: Data("{}".utf8)).status == 401)
        #expect(try await RawHTTP.send(URL(string: url)!, "healthz", method: "GET").status == 200)

        let first = try await Self.scrape(metrics)
        for name in Self.names { #expect(first.contains("# TYPE \(name) "), "\(name) missing:\n\(first)") }
        #expect(Self.value(#"boutique_pushed_changes_total"#, in: first) == 2, "\(first)")
        // A new device's first rows come by snapshot, not pull: the pulls so far had nothing to send.
        #expect(Self.value(#"boutique_pulled_changes_total"#, in: first) == 0, "\(first)")
        #expect((Self.value(#"boutique_http_requests_total{endpoint="push",status="200"}"#, in: first) ?? 0) >= 1, "\(first)")
        #expect(Self.value(#"boutique_http_requests_total{endpoint="pull",status="401"}"#, in: first) == 1, "\(first)")
        #expect(Self.value(#"boutique_http_requests_total{endpoint="healthz",status="200"}"#, in: first) == 1, "\(first)")
        #expect(Self.value(#"boutique_refusals_total{reason="unauthorized"}"#, in: first) == 1, "\(first)")
        #expect(Self.value(#"boutique_tenants_active"#, in: first) == 1, "\(first)")
        #expect(Self.value(#"boutique_log_entries"#, in: first) == 2, "\(first)")
        #expect(Self.value(#"boutique_store_errors_total"#, in: first) == 0, "\(first)")
        #expect(Self.value(#"boutique_gc_removed_total{kind="log"}"#, in: first) == 0, "\(first)")
        let pushes = try #require(Self.value(#"boutique_http_request_duration_seconds_count{endpoint="push"}"#, in: first))
        #expect(Self.value(#"boutique_http_request_duration_seconds_bucket{endpoint="push",le="+Inf"}"#, in: first) == pushes)
        for private_ in ["acme", "ana", token, "forged"] { #expect(!first.contains(private_), "\(private_) in the metrics") }

        // A device following the server waits in a long poll; its connection is open.
        let follower = try workspace.start(["sync", "b.db", "--server", url, "--token", token, "--tables", "note", "--follow"])
        try await waitUntil("a long poll waits") { Self.value("boutique_long_polls_waiting", in: try await Self.scrape(metrics)) == 1 }
        #expect((Self.value("boutique_connections_open", in: try await Self.scrape(metrics)) ?? 0) >= 1)
        try await workspace.tool(["sql", "a.db", "INSERT INTO note VALUES ('n3', 'Three', NULL, 'a')"])
        _ = try await workspace.sync("a.db", server: url, token: token)
        let second = try await Self.scrape(metrics)
        #expect(Self.value(#"boutique_pushed_changes_total"#, in: second) == 3, "\(second)")
        try await waitUntil("the follower pulled the new change") {
            (Self.value("boutique_pulled_changes_total", in: try await Self.scrape(metrics)) ?? 0)
                == 1
        }
        follower.send(SIGTERM)
        _ = await follower.wait()
        try await waitUntil("no long poll waits") { Self.value("boutique_long_polls_waiting", in: try await Self.scrape(metrics)) == 0 }
        server.send(SIGTERM)
        _ = await server.wait()
    }

    /// `--housekeeping-interval` brings the first round forward: once both devices have pulled past
    /// the log's entries (their next pulls say so), a round removes them, and
    /// `boutique_gc_removed_total{kind="log"}` counts what it removed.
    @Test(arguments: StoreKind.allCases)
    func collectedLogEntriesAreCounted(_ kind: StoreKind) async throws {
        try await ConnectionBudgetProcessTests.serving(kind, flags: ["--metrics-port", "0", "--housekeeping-interval", "1s"]) {
            workspace, server, url, _, token in
            let line = try await server.line(startingWith: "metrics on ")
            let metrics = try #require(URL(string: String(line.dropFirst("metrics on ".count))))
            for device in ["a.db", "b.db"] { try await workspace.makeDevice(device) }
            try await workspace.tool(["sql", "a.db", "INSERT INTO note VALUES ('n1', 'One', NULL, 'a'), ('n2', 'Two', NULL, 'a')"])
            // A device's pull says how far it has: each pulls twice, the second time from past both entries.
            for _ in 0..<2 {
                _ = try await workspace.sync("a.db", server: url.absoluteString, token: token)
                _ = try await workspace.sync("b.db", server: url.absoluteString, token: token)
            }
            try await waitUntil("a round removed both entries") {
                Self.value(#"boutique_gc_removed_total{kind="log"}"#, in: try await Self.scrape(metrics)) == 2
            }
            // The round is logged just after it is counted, and its line read from the pipe a moment later.
            try await waitUntil("the round is logged") { server.errors.contains("log entries 1…2 and 0 tombstone(s) removed") }
        }
    }
}
#endif
