// These run `boutique serve`, which needs the HTTP front end: they are compiled where the package has it.
#if BOUTIQUE_SYNC_HTTP
import BoutiqueSQLite
import BoutiqueSyncServer
import BoutiqueTestSupport
import Foundation
import Testing

/// `boutique backup`: a copy of a SQLite store made while `boutique serve` serves it and devices push,
/// which another `boutique serve` then serves as the same server.
@Suite(.serialized) struct BackupProcessTests {
    /// Where PostgreSQL 15's client tools are on Debian, as CI installs them.
    static let postgreSQLTools = URL(fileURLWithPath: "/usr/lib/postgresql/15/bin")
    static let hasPostgreSQLTools = ["pg_dump", "pg_restore"].allSatisfy {
        FileManager.default.isExecutableFile(atPath: postgreSQLTools.appendingPathComponent($0).path)
    }

    @Test func aStoreCopiedWhileItServesIsServedAsTheSameServer() async throws {
        let workspace = try SyncWorkspace()
        let (server, url) = try await workspace.serve()
        let token = try await workspace.token()
        try await workspace.makeDevice("a.db")
        try await workspace.tool([
            "sql", "a.db",
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50) INSERT INTO note SELECT 'n' || i, 'Note ' || i, NULL, 'a' FROM n",
        ])
        _ = try await workspace.sync("a.db", server: url, token: token)
        // Pushes go on while the copy is made.
        try await workspace.makeDevice("b.db")
        let pushing = Task {
            for round in 1...5 {
                try await workspace.tool(["sql", "b.db", "INSERT INTO note VALUES ('b\(round)', 'From b', NULL, 'b')"])
                _ = try await workspace.sync("b.db", server: url, token: token)
            }
        }
        let copied = try await workspace.tool(["backup", "--store", "server.db", "--out", "copy.db"])
        try await pushing.value
        #expect(copied.hasPrefix("copied server.db to copy.db"), "\(copied)")
        let mode = try FileManager.default.attributesOfItem(atPath: workspace.directory.file("copy.db").path)[.posixPermissions] as? Int
        #expect(mode == 0o600, "the copy is its owner's alone: \(String(mode ?? 0, radix: 8))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.url.path).allSatisfy { !$0.contains("partial") })

        // An existing copy is kept unless --force.
        let before = try Data(contentsOf: workspace.directory.file("copy.db"))
        let refused = try await workspace.attempt(["backup", "--store", "server.db", "--out", "copy.db"])
        #expect(refused.status == 1 && refused.errors.contains("copy.db exists: --force replaces it"), "\(refused.errors)")
        #expect(try Data(contentsOf: workspace.directory.file("copy.db")) == before)
        let replaced = try await workspace.attempt(["backup", "--store", "server.db", "--out", "copy.db", "--force"])
        #expect(replaced.status == 0, "\(replaced.errors)")

        server.send(SIGTERM)
        #expect(await server.wait(timeout: .seconds(60)).status == 0)
        let (restored, restoredURL) = try await workspace.serve(store: "copy.db")
        // The copy holds every row, and is the server the devices knew: a brings only b's five notes,
        // which it had not pulled yet, and nothing it had again.
        let again = try await workspace.sync("a.db", server: restoredURL, token: token)
        #expect(again.contains("pushed 0 changes, pulled 5 changes") && !again.contains("not the server"), "\(again)")
        try await workspace.makeDevice("c.db")
        _ = try await workspace.sync("c.db", server: restoredURL, token: token)
        #expect(try workspace.notes("c.db").count == 55)
        restored.send(SIGTERM)
        _ = await restored.wait(timeout: .seconds(60))
    }

    /// PostgreSQL's own dump, taken while the server serves and restored into another database, is
    /// served as the same server.
    @Test(.enabled(if: BackupProcessTests.hasPostgreSQLTools, "PostgreSQL 15's pg_dump and pg_restore are not installed"))
    func aPostgreSQLDumpRestoredIsServedAsTheSameServer() async throws {
        let tools = Self.postgreSQLTools
        try await PostgreSQLTestDatabase.withFresh { postgres in
            let workspace = try SyncWorkspace()
            let (server, url) = try await workspace.serve(postgres: postgres)
            let token = try await workspace.token()
            try await workspace.makeDevice("a.db")
            try await workspace.tool([
                "sql", "a.db",
                "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30) INSERT INTO note SELECT 'n' || i, 'Note ' || i, NULL, 'a' FROM n",
            ])
            _ = try await workspace.sync("a.db", server: url, token: token)
            let dump = workspace.directory.file("store.dump").path
            let dumped = try await ChildProcess.run(
                executable: tools.appendingPathComponent("pg_dump"), ["--format=custom", "--file=\(dump)", "--dbname=\(postgres)"])
            try #require(dumped.status == 0, "\(dumped.errors)")
            server.send(SIGTERM)
            #expect(await server.wait(timeout: .seconds(60)).status == 0)

            try await PostgreSQLTestDatabase.withFresh { restoredDatabase in
                let restoring = try await ChildProcess.run(
                    executable: tools.appendingPathComponent("pg_restore"), ["--no-owner", "--dbname=\(restoredDatabase)", dump])
                try #require(restoring.status == 0, "\(restoring.errors)")
                let (restored, restoredURL) = try await workspace.serve(postgres: restoredDatabase)
                let again = try await workspace.sync("a.db", server: restoredURL, token: token)
                #expect(again.contains("pulled 0 changes") && !again.contains("not the server"), "\(again)")
                try await workspace.makeDevice("c.db")
                _ = try await workspace.sync("c.db", server: restoredURL, token: token)
                #expect(try workspace.notes("c.db").count == 30)
                restored.send(SIGTERM)
                _ = await restored.wait(timeout: .seconds(60))
            }
        }
    }

    /// Devices that synced after the copy was made are ahead of the server restored from it: each
    /// sends again what the copy lacks of its acknowledged writes (new rows, edits, a delete), and
    /// every device ends with every row, once, as the server has it; a device that last synced before
    /// the copy gets the others' later writes.
    @Test func devicesAheadOfARestoredCopyPushAgainWhatItLacks() async throws {
        try await Self.withBackupCopy(Self.devicesAheadOfARestore)
    }

    /// The same with PostgreSQL's own dump and restore, of which the server is told nothing.
    @Test(.enabled(if: BackupProcessTests.hasPostgreSQLTools, "PostgreSQL 15's pg_dump and pg_restore are not installed"))
    func devicesAheadOfARestoredPostgreSQLDumpPushAgainWhatItLacks() async throws {
        try await Self.withPostgreSQLDumpAndRestore(Self.devicesAheadOfARestore)
    }

    /// Devices a, b and d sync; `backup` copies the store; a and b write and sync more; `restore`
    /// stops the server and serves the copy; every device syncs again.
    /// What a restore scenario is given: the workspace, the server's address, a step that backs the
    /// store up, and one that stops the server and serves the restored copy.
    typealias RestoreScenario = (
        _ workspace: SyncWorkspace, _ url: String, _ backup: () async throws -> Void,
        _ restore: () async throws -> (process: ChildProcess, url: String)
    ) async throws -> Void

    /// Runs `scenario` on a SQLite store copied by `boutique backup`, the copy then served in its place.
    private static func withBackupCopy(_ scenario: RestoreScenario) async throws {
        let workspace = try SyncWorkspace()
        let (server, url) = try await workspace.serve()
        try await scenario(workspace, url) {
            _ = try await workspace.tool(["backup", "--store", "server.db", "--out", "copy.db"])
        } _: {
            server.send(SIGTERM)
            #expect(await server.wait(timeout: .seconds(60)).status == 0)
            return try await workspace.serve(store: "copy.db")
        }
    }

    /// Runs `scenario` on a PostgreSQL store dumped by `pg_dump` and restored by `pg_restore` into
    /// another database, of which the server is told nothing.
    private static func withPostgreSQLDumpAndRestore(_ scenario: RestoreScenario) async throws {
        let tools = Self.postgreSQLTools
        try await PostgreSQLTestDatabase.withFresh { postgres in
            try await PostgreSQLTestDatabase.withFresh { restoredDatabase in
                let workspace = try SyncWorkspace()
                let (server, url) = try await workspace.serve(postgres: postgres)
                let dump = workspace.directory.file("store.dump").path
                try await scenario(workspace, url) {
                    let dumped = try await ChildProcess.run(
                        executable: tools.appendingPathComponent("pg_dump"), ["--format=custom", "--file=\(dump)", "--dbname=\(postgres)"])
                    try #require(dumped.status == 0, "\(dumped.errors)")
                } _: {
                    server.send(SIGTERM)
                    #expect(await server.wait(timeout: .seconds(60)).status == 0)
                    let restoring = try await ChildProcess.run(
                        executable: tools.appendingPathComponent("pg_restore"), ["--no-owner", "--dbname=\(restoredDatabase)", dump])
                    try #require(restoring.status == 0, "\(restoring.errors)")
                    return try await workspace.serve(postgres: restoredDatabase)
                }
            }
        }
    }

    private static func devicesAheadOfARestore(
        in workspace: SyncWorkspace, serving url: String, backup: () async throws -> Void,
        restore: () async throws -> (process: ChildProcess, url: String)
    ) async throws {
        let token = try await workspace.token()
        for device in ["a.db", "b.db", "d.db"] { try await workspace.makeDevice(device) }
        try await workspace.tool([
            "sql", "a.db",
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10) INSERT INTO note SELECT 'a' || i, 'Note ' || i, NULL, 'a' FROM n",
        ])
        try await workspace.tool(["sql", "b.db", "INSERT INTO note VALUES ('b1', 'From b', NULL, 'b')"])
        for device in ["a.db", "b.db", "d.db", "a.db"] { _ = try await workspace.sync(device, server: url, token: token) }
        try await backup()

        // After the copy: new rows, edits of rows the copy has, and deletes, acknowledged by the server.
        try await workspace.tool(["sql", "a.db", "INSERT INTO note VALUES ('a11', 'Later', NULL, 'a'), ('a12', 'Later', NULL, 'a')"])
        try await workspace.tool(["sql", "a.db", "UPDATE note SET title = 'Edited by a' WHERE id IN ('a1', 'b1')"])
        try await workspace.tool(["sql", "a.db", "DELETE FROM note WHERE id = 'a2'"])
        _ = try await workspace.sync("a.db", server: url, token: token)
        try await workspace.tool(["sql", "b.db", "INSERT INTO note VALUES ('b2', 'Later from b', NULL, 'b')"])
        try await workspace.tool(["sql", "b.db", "DELETE FROM note WHERE id = 'a3'"])
        _ = try await workspace.sync("b.db", server: url, token: token)
        _ = try await workspace.sync("a.db", server: url, token: token)
        let acknowledged = try workspace.notes("a.db")
        #expect(try workspace.notes("b.db") == acknowledged)
        #expect(acknowledged.map { $0[0] } == ["a1", "a10", "a11", "a12", "a4", "a5", "a6", "a7", "a8", "a9", "b1", "b2"])

        let (restored, restoredURL) = try await restore()
        // Each device ahead of the copy sends again what it lacks; a second round brings each the
        // other's, and the device that last synced before the copy gets both.
        for device in ["a.db", "b.db", "a.db", "d.db"] {
            let output = try await workspace.sync(device, server: restoredURL, token: token)
            #expect(!output.contains("not the server"), "\(device): \(output)")
        }
        try await workspace.makeDevice("c.db")
        _ = try await workspace.sync("c.db", server: restoredURL, token: token)
        for device in ["a.db", "b.db", "c.db", "d.db"] {
            #expect(try workspace.notes(device) == acknowledged, "\(device) holds every acknowledged change, once")
        }
        restored.send(SIGTERM)
        _ = await restored.wait(timeout: .seconds(60))
    }

    /// A device that only pulled after the copy was made, and syncs only once the restored server's
    /// log has grown past its cursor (other devices wrote there): neither its push nor its pull finds
    /// the server behind it, but the restored server's history is not the one its cursor was taken
    /// in, so it takes the server's state again and ends with exactly the server's rows.
    @Test func aDeviceThatOnlyPulledSinceTheCopyGetsWhatTheRestoredLogHoldsBelowItsCursor() async throws {
        try await Self.withBackupCopy(Self.aDeviceThatOnlyPulledSinceTheBackup)
    }

    /// The same with PostgreSQL's own dump, restored into another database: the server is told
    /// nothing, and finds the restore by where its history's row now lives.
    @Test(.enabled(if: BackupProcessTests.hasPostgreSQLTools, "PostgreSQL 15's pg_dump and pg_restore are not installed"))
    func aDeviceThatOnlyPulledSinceAPostgreSQLDumpGetsWhatTheRestoredLogHoldsBelowItsCursor() async throws {
        try await Self.withPostgreSQLDumpAndRestore(Self.aDeviceThatOnlyPulledSinceTheBackup)
    }

    /// A copy made another way than `boutique backup` (SQLite's `VACUUM INTO` from another process)
    /// keeps the original's history; `boutique new-history` gives it one before it serves.
    @Test func aCopyMadeOtherwiseIsMarkedWithNewHistory() async throws {
        let workspace = try SyncWorkspace()
        let (server, url) = try await workspace.serve()
        try await Self.aDeviceThatOnlyPulledSinceTheBackup(in: workspace, serving: url) {
            let store = try Connection(path: workspace.directory.file("server.db").path, flags: [.readOnly, .noMutex])
            defer { store.close() }
            try store.execute("VACUUM INTO ?", [.text(workspace.directory.file("copy.db").path)])
        } restore: {
            server.send(SIGTERM)
            #expect(await server.wait(timeout: .seconds(60)).status == 0)
            let marked = try await workspace.tool(["new-history", "--store", "copy.db"])
            #expect(marked.hasPrefix("gave copy.db a new history"), "\(marked)")
            return try await workspace.serve(store: "copy.db")
        }
        let missing = try await workspace.attempt(["new-history", "--store", "nothing.db"])
        #expect(missing.status == 2 && missing.errors.contains("no such store: nothing.db"), "\(missing.errors)")
        #expect(!FileManager.default.fileExists(atPath: workspace.directory.file("nothing.db").path))
    }

    /// Devices a and p sync; `backup` copies the store; a writes ten rows and p pulls them; `restore`
    /// serves the copy; a new device g writes forty rows there, past p's cursor, and a sends again
    /// what the copy lacks; then p syncs.
    private static func aDeviceThatOnlyPulledSinceTheBackup(
        in workspace: SyncWorkspace, serving url: String, backup: () async throws -> Void,
        restore: () async throws -> (process: ChildProcess, url: String)
    ) async throws {
        let token = try await workspace.token()
        for device in ["a.db", "p.db", "g.db", "c.db"] { try await workspace.makeDevice(device) }
        try await workspace.tool([
            "sql", "a.db",
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5) INSERT INTO note SELECT 'a' || i, 'Note ' || i, NULL, 'a' FROM n",
        ])
        for device in ["a.db", "p.db"] { _ = try await workspace.sync(device, server: url, token: token) }
        try await backup()
        try await workspace.tool([
            "sql", "a.db",
            "WITH RECURSIVE n(i) AS (SELECT 6 UNION ALL SELECT i + 1 FROM n WHERE i < 15) INSERT INTO note SELECT 'a' || i, 'Later ' || i, NULL, 'a' FROM n",
        ])
        for device in ["a.db", "p.db"] { _ = try await workspace.sync(device, server: url, token: token) }
        #expect(try workspace.notes("p.db").count == 15)

        let (restored, restoredURL) = try await restore()
        try await workspace.tool([
            "sql", "g.db",
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 40) INSERT INTO note SELECT 'g' || i, 'Grown ' || i, NULL, 'g' FROM n",
        ])
        for device in ["g.db", "a.db"] { _ = try await workspace.sync(device, server: restoredURL, token: token) }
        let pulled = try await workspace.sync("p.db", server: restoredURL, token: token)
        #expect(!pulled.contains("not the server") && !pulled.contains("lost") && !pulled.contains("refused"), "\(pulled)")
        _ = try await workspace.sync("c.db", server: restoredURL, token: token)
        let onServer = try workspace.notes("c.db")
        #expect(onServer.count == 55, "the restored server has every acknowledged row")
        #expect(try workspace.notes("p.db") == onServer, "the device that only pulled holds exactly the server's rows")
        #expect(try workspace.notes("a.db") == onServer)
        restored.send(SIGTERM)
        _ = await restored.wait(timeout: .seconds(60))
    }

    @Test func whatIsNotAStoreOrNotNamedIsRefused() async throws {
        let workspace = try SyncWorkspace()
        try await workspace.makeDevice("a.db")
        let notStore = try await workspace.attempt(["backup", "--store", "a.db", "--out", "copy.db"])
        #expect(notStore.status == 1 && notStore.errors.contains("a.db is not a sync server's store"), "\(notStore.errors)")
        let missing = try await workspace.attempt(["backup", "--store", "nothing.db", "--out", "copy.db"])
        #expect(missing.status == 2 && missing.errors.contains("no such file: nothing.db"), "\(missing.errors)")
        let noOut = try await workspace.attempt(["backup", "--store", "a.db"])
        #expect(noOut.status == 2 && noOut.errors.contains("--out FILE is required"), "\(noOut.errors)")
        #expect(!FileManager.default.fileExists(atPath: workspace.directory.file("copy.db").path))
    }

    /// A file of a `--store-dir` directory holds a part of the server: a copy of it alone would be
    /// served as the whole, with every tenant's data missing.
    @Test func aFileOfAStoreDirectoryIsRefused() async throws {
        let workspace = try SyncWorkspace()
        let directory = workspace.directory.file("tenants-store")
        let store = try await SQLiteTenantFilesStore.open(directory: directory)
        _ = try await store.transaction(tenant: "acme") { store in try store.latestSequence() }
        await store.close()
        let main = try await workspace.attempt(["backup", "--store", "tenants-store/main.db", "--out", "copy.db"])
        #expect(main.status == 1 && main.errors.contains("main file of a `boutique serve --store-dir` directory"), "\(main.errors)")
        let tenantFile = try #require(
            try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("tenants").path).first { $0.hasSuffix(".db") })
        let tenant = try await workspace.attempt(["backup", "--store", "tenants-store/tenants/" + tenantFile, "--out", "copy.db"])
        #expect(tenant.status == 1 && tenant.errors.contains("one tenant's file"), "\(tenant.errors)")
        #expect(!FileManager.default.fileExists(atPath: workspace.directory.file("copy.db").path))
    }
}
#endif
