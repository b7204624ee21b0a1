// These run `boutique serve`, which needs the HTTP front end: they are compiled where the package has it.
#if BOUTIQUE_SYNC_HTTP
import BoutiqueSQLite
import BoutiqueTestSupport
import Foundation
import Testing

/// Writes made by processes that run no sync — a widget, the `boutique sql` tool — are stamped when
/// they are made and cross as soon as a syncing process sees them, whatever the table's name.
@Suite(.serialized) struct CommitTimeProcessTests {
    @Test func aWidgetsEditMadeWhileTheAppWasClosedLosesToALaterEditElsewhere() async throws {
        let workspace = try SyncWorkspace()
        let (server, url) = try await workspace.serve()
        let token = try await workspace.token()
        try await workspace.makeDevice("app.db")
        try await workspace.makeDevice("b.db")
        try await workspace.tool(["sql", "app.db", "INSERT INTO note VALUES ('n1', 'first', NULL, 'app')"])
        _ = try await workspace.sync("app.db", server: url, token: token)
        _ = try await workspace.sync("b.db", server: url, token: token)

        // The app is closed; its widget (a process of its own, with no sync code) edits the note.
        try await workspace.tool(["sql", "app.db", "UPDATE note SET title = 'from the widget' WHERE id = 'n1'"])
        try await Task.sleep(for: .milliseconds(50))
        // Later, another device edits the same field and syncs.
        try await workspace.tool(["sql", "b.db", "UPDATE note SET title = 'later, on b' WHERE id = 'n1'"])
        _ = try await workspace.sync("b.db", server: url, token: token)
        // Then the app opens, in a later second, and syncs: the widget's edit is older, and loses.
        try await Task.sleep(for: .milliseconds(1_100))
        _ = try await workspace.sync("app.db", server: url, token: token)
        _ = try await workspace.sync("b.db", server: url, token: token)
        #expect(try workspace.notes("app.db") == [["n1", "later, on b", "NULL", "app"]])
        #expect(try workspace.notes("b.db") == [["n1", "later, on b", "NULL", "app"]])
        server.send(SIGINT)
        _ = await server.wait(timeout: .seconds(20))
    }

    @Test func writesByAnotherProcessToATableNamedWithCapitalsCrossAtOnce() async throws {
        let workspace = try SyncWorkspace()
        let (server, url) = try await workspace.serve()
        let token = try await workspace.token()
        let schema = "CREATE TABLE noteItem(id TEXT PRIMARY KEY NOT NULL, title TEXT)"
        for device in ["a.db", "b.db"] { try await workspace.tool(["sql", device, schema, "--create"]) }
        let followers = try ["a.db", "b.db"].map { device in
            try ChildProcess(
                "boutique", ["sync", device, "--server", url, "--token", token, "--tables", "noteItem", "--follow"], in: workspace.url)
        }
        for follower in followers { _ = try await follower.line(startingWith: "following ") }
        var latencies: [Duration] = []
        for index in 0..<5 {
            try await workspace.tool(["sql", "a.db", "INSERT INTO noteItem VALUES ('i\(index)', 'crossing')"])
            let written = ContinuousClock.now
            // Long polls last 25 s: a row that waited for the next round would miss this deadline.
            let deadline = written + .seconds(20)
            var arrived = false
            while !arrived, ContinuousClock.now < deadline {
                arrived = (try? Self.count(in: workspace.directory.file("b.db"), id: "i\(index)")) == 1
                if !arrived { try await Task.sleep(for: .milliseconds(5)) }
            }
            #expect(arrived, "row \(index) crossed")
            latencies.append(ContinuousClock.now - written)
        }
        print("noteItem rows written by another process reached the other device in", latencies.map { "\($0.formatted(.units(allowed: [.milliseconds])))" })
        for follower in followers { follower.send(SIGINT) }
        for follower in followers { _ = await follower.wait(timeout: .seconds(20)) }
        server.send(SIGINT)
        _ = await server.wait(timeout: .seconds(20))
    }

    static func count(in file: URL, id: String) throws -> Int {
        let connection = try Connection(path: file.path, flags: [.readOnly])
        defer { connection.close() }
        guard case .integer(let count)? = try connection.cachedRows("SELECT count(*) FROM noteItem WHERE id = ?", [.text(id)]).first?[0]
        else { return 0 }
        return Int(count)
    }
}
#endif
