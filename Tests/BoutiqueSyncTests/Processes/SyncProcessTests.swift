// These run `boutique serve`, which needs the HTTP front end: they are compiled where the package has it.
#if BOUTIQUE_SYNC_HTTP
import BoutiqueSQLite
import BoutiqueTestSupport
import Foundation
import Testing

/// Devices and servers as real processes on 127.0.0.1: `boutique serve`, `boutique sync` on database
/// files, and `kill -9` at random points.
@Suite(.serialized) struct SyncProcessTests {
    @Test(arguments: [2, 5]) func deviceProcessesEditingTheSameTablesConverge(devices: Int) async throws {
        let workspace = try SyncWorkspace()
        let (server, url) = try await workspace.serve()
        let token = try await workspace.token()
        let names = (0..<devices).map { "device\($0).db" }
        for name in names { try await workspace.makeDevice(name) }
        try await workspace.tool(["sql", names[0], "INSERT INTO note VALUES ('shared', 'Shared', 'first', 'd0')"])
        for name in names { _ = try await workspace.sync(name, server: url, token: token) }

        // Every device edits its own rows and the shared one (its own column, then everyone the same
        // column), then all sync at once, twice.
        for (index, name) in names.enumerated() {
            try await workspace.tool([
                "sql", name,
                """
                INSERT INTO note VALUES ('own-\(index)', 'From \(index)', NULL, 'd\(index)');
                UPDATE note SET \(index == 0 ? "title" : "body") = 'edited by \(index)', device = 'd\(index)' WHERE id = 'shared'
                """,
            ])
        }
        for _ in 0..<2 {
            try await withThrowingTaskGroup(of: String.self) { group in
                for name in names { group.addTask { try await workspace.sync(name, server: url, token: token) } }
                try await group.waitForAll()
            }
        }
        let first = try workspace.notes(names[0])
        #expect(first.count == devices + 1)
        #expect(Set(first.map { $0[0] }) == Set(["shared"] + (0..<devices).map { "own-\($0)" }))
        #expect(first.first { $0[0] == "shared" }?[1] == "edited by 0", "device 0's title survives the others' body edits")
        for name in names.dropFirst() {
            #expect(try workspace.notes(name) == first, "\(name) equals device0")
        }
        server.send(SIGTERM)
        // A minute only tells a hang: a server built with ThreadSanitizer is slow to stop. The answer
        // says how it ended, and its last words, when it did not end well.
        let exit = await server.wait(timeout: .seconds(60))
        #expect(exit.status == 0 && !exit.signalled, "status \(exit.status), signalled \(exit.signalled): \(exit.errors.suffix(3_000))")
        #expect(exit.errors.contains("stopped"))
    }

    @Test func aFollowingDeviceGetsAnotherDevicesWritesAndStopsOnCtrlC() async throws {
        let workspace = try SyncWorkspace()
        let (server, url) = try await workspace.serve()
        let token = try await workspace.token()
        try await workspace.makeDevice("a.db")
        try await workspace.makeDevice("b.db")
        let follower = try ChildProcess("boutique", ["sync", "b.db", "--server", url, "--token", token, "--tables", "note", "--follow"], in: workspace.url)
        _ = try await follower.line(startingWith: "following ")
        try await workspace.tool(["sql", "a.db", "INSERT INTO note VALUES ('n1', 'Live', NULL, 'a')"])
        _ = try await workspace.sync("a.db", server: url, token: token)
        var rows: [[String]] = []
        for _ in 0..<500 where rows.isEmpty {
            rows = (try? workspace.notes("b.db")) ?? []
            if rows.isEmpty { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(rows == [["n1", "Live", "NULL", "a"]])
        follower.send(SIGINT)
        let exit = await follower.wait(timeout: .seconds(20))
        #expect(exit.status == 0 && !exit.signalled, "\(exit.errors)")
        #expect(exit.output.contains("pulling 1 change"), "\(exit.output)")
        server.send(SIGINT)
        _ = await server.wait(timeout: .seconds(20))
    }

    /// 10 transactions of 1,000 rows each on one device.
    static func bulkWrites(_ workspace: SyncWorkspace, device: String, prefix: String = "b") async throws {
        for batch in 0..<10 {
            try await workspace.tool([
                "sql", device,
                """
                WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 1000)
                INSERT INTO note SELECT printf('\(prefix)\(batch)-%04d', x), 'bulk', NULL, 'a' FROM n
                """,
            ])
        }
    }

    @Test func killingDevicesMidPushAndMidPullLosesAndDuplicatesNothing() async throws {
        let workspace = try SyncWorkspace()
        let (server, url) = try await workspace.serve()
        let token = try await workspace.token()
        try await workspace.makeDevice("a.db")
        try await workspace.makeDevice("b.db")
        try await Self.bulkWrites(workspace, device: "a.db")
        var killedPushes = 0
        for delay in [Int.random(in: 50...300), Int.random(in: 150...600)] {
            let device = try ChildProcess("boutique", ["sync", "a.db", "--server", url, "--token", token, "--tables", "note"], in: workspace.url)
            try await Task.sleep(for: .milliseconds(delay))
            device.send(SIGKILL)
            if await device.wait().signalled { killedPushes += 1 }
        }
        print("killed \(killedPushes) pushes; the server held \(try workspace.serverLog().changes) changes then")
        _ = try await workspace.sync("a.db", server: url, token: token)
        for delay in [Int.random(in: 50...300), Int.random(in: 150...600)] {
            let device = try ChildProcess("boutique", ["sync", "b.db", "--server", url, "--token", token, "--tables", "note"], in: workspace.url)
            try await Task.sleep(for: .milliseconds(delay))
            device.send(SIGKILL)
            _ = await device.wait()
        }
        _ = try await workspace.sync("b.db", server: url, token: token)
        let log = try workspace.serverLog()
        #expect(log.changes == 10_000 && log.rows == 10_000, "each row logged once on the server: \(log)")
        let a = try workspace.notes("a.db")
        #expect(a.count == 10_000)
        #expect(try workspace.notes("b.db") == a)
        server.send(SIGTERM)
        _ = await server.wait(timeout: .seconds(20))
    }

    @Test func aServerKilledBetweenItsCommitAndItsReplyLosesAndDuplicatesNothing() async throws {
        let workspace = try SyncWorkspace()
        let crashing = try ChildProcess(
            "BoutiqueSyncTestServer", ["--store", "server.db", "--secret-file", "secret", "--crash-after-push-commits", "1"],
            in: workspace.url)
        let url = String(try await crashing.line(startingWith: "listening on ").dropFirst("listening on ".count))
        let port = try #require(URL(string: url)?.port)
        let token = try await workspace.token()
        try await workspace.makeDevice("a.db")
        try await workspace.makeDevice("b.db")
        try await workspace.tool(["sql", "a.db", "INSERT INTO note VALUES ('n1', 'One', NULL, 'a'); INSERT INTO note VALUES ('n2', 'Two', NULL, 'a')"])
        try await workspace.tool(["sql", "a.db", "UPDATE note SET body = 'edited' WHERE id = 'n1'"])
        let failed = try await ChildProcess.run("boutique", ["sync", "a.db", "--server", url, "--token", token, "--tables", "note"], in: workspace.url)
        #expect(failed.status == 1, "the device got no reply: \(failed.output) \(failed.errors)")
        #expect(await crashing.wait().signalled, "the server died after committing")
        let committed = try workspace.serverLog()
        #expect(committed.changes == 3, "the push was committed before the crash: \(committed)")

        let (server, sameURL) = try await workspace.serve(port: port)
        #expect(sameURL == url)
        _ = try await workspace.sync("a.db", server: url, token: token)
        _ = try await workspace.sync("b.db", server: url, token: token)
        #expect(try workspace.serverLog().changes == 3, "the retried push was recognised, not applied again")
        #expect(try workspace.notes("b.db") == [["n1", "One", "edited", "a"], ["n2", "Two", "NULL", "a"]])
        #expect(try workspace.notes("b.db") == workspace.notes("a.db"))
        server.send(SIGTERM)
        _ = await server.wait(timeout: .seconds(20))
    }

    @Test func devicesSpreadOverTwoServerProcessesOnOnePostgreSQLConverge() async throws {
        try await PostgreSQLTestDatabase.withFresh { database in
            let workspace = try SyncWorkspace()
            let (first, firstURL) = try await workspace.serve(postgres: database)
            let (second, secondURL) = try await workspace.serve(postgres: database)
            let token = try await workspace.token()
            let names = (0..<4).map { "device\($0).db" }
            for name in names { try await workspace.makeDevice(name) }
            // A device following the second server: woken by pushes to the first, through NOTIFY.
            try await workspace.makeDevice("follower.db")
            let follower = try ChildProcess(
                "boutique", ["sync", "follower.db", "--server", secondURL, "--token", token, "--tables", "note", "--follow"],
                in: workspace.url)
            _ = try await follower.line(startingWith: "following ")
            for (index, name) in names.enumerated() {
                try await workspace.tool(["sql", name, "INSERT INTO note VALUES ('n\(index)', 'From \(index)', NULL, 'd\(index)')"])
            }
            let servers = [firstURL, secondURL]
            for _ in 0..<2 {
                try await withThrowingTaskGroup(of: String.self) { group in
                    for (index, name) in names.enumerated() {
                        group.addTask { try await workspace.sync(name, server: servers[index % 2], token: token) }
                    }
                    try await group.waitForAll()
                }
            }
            let expected = try workspace.notes(names[0])
            #expect(expected.map { $0[0] } == ["n0", "n1", "n2", "n3"])
            for name in names.dropFirst() { #expect(try workspace.notes(name) == expected, "\(name)") }
            var followed: [[String]] = []
            for _ in 0..<500 where followed != expected {
                followed = (try? workspace.notes("follower.db")) ?? []
                if followed != expected { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(followed == expected, "the follower of the second server got the first server's pushes")
            follower.send(SIGINT)
            _ = await follower.wait(timeout: .seconds(20))
            for server in [first, second] {
                server.send(SIGTERM)
                #expect(await server.wait(timeout: .seconds(20)).status == 0)
            }
        }
    }

    @Test func theToolRefusesBadUsage() async throws {
        let workspace = try SyncWorkspace()
        try Data("short".utf8).write(to: workspace.directory.file("short-secret"))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: workspace.directory.file("short-secret").path)
        let noPort = try await ChildProcess.run("boutique", ["serve", "--store", "s.db", "--secret-file", "secret"], in: workspace.url)
        #expect(noPort.status == 2 && noPort.errors.contains("--port is required"))
        let shortSecret = try await ChildProcess.run(
            "boutique", ["token", "--secret-file", "short-secret", "--tenant", "t", "--user", "u"], in: workspace.url)
        #expect(shortSecret.status == 1 && shortSecret.errors.contains("at least 32"))
        let badExpiry = try await ChildProcess.run(
            "boutique", ["token", "--secret-file", "secret", "--tenant", "t", "--user", "u", "--expires", "soon"], in: workspace.url)
        #expect(badExpiry.status == 2)
        let badServer = try await ChildProcess.run(
            "boutique", ["sync", "x.db", "--server", "ftp://nowhere", "--token", "t", "--tables", "note"], in: workspace.url)
        #expect(badServer.status == 2)
        let (server, url) = try await workspace.serve()
        let taken = try await ChildProcess.run(
            "boutique", ["serve", "--port", String(URL(string: url)?.port ?? 0), "--store", "s.db", "--secret-file", "secret"], in: workspace.url)
        #expect(taken.status == 1 && taken.errors.contains("cannot listen"))
        try await workspace.makeDevice("a.db")
        let forged = try await ChildProcess.run(
            "boutique", ["sync", "a.db", "--server", url, "--token", "bq1.e30.AAAA", "--tables", "note"], in: workspace.url)
        #expect(forged.status == 1 && forged.errors.contains("401"), "\(forged.errors)")
        server.send(SIGINT)
        #expect(await server.wait(timeout: .seconds(20)).status == 0)
    }
}
#endif
