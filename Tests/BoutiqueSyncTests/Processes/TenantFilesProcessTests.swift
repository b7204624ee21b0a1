// These run `boutique serve`, which needs the HTTP front end: they are compiled where the package has it.
#if BOUTIQUE_SYNC_HTTP
import BoutiqueSQLite
import BoutiqueSync
import BoutiqueTestSupport
import Foundation
import Testing

/// `boutique serve --store-dir` as a real process on 127.0.0.1, with devices of two tenants syncing
/// through `boutique sync`.
@Suite struct TenantFilesProcessTests {
    @Test func twoTenantsSyncThroughAServerKeepingAFileEachAndARestartKeepsThem() async throws {
        let workspace = try SyncWorkspace()
        let (server, url) = try await workspace.serve(storeDirectory: "store")
        let tenants = ["acme", "../globex"]
        var tokens: [String] = []
        for tenant in tenants { tokens.append(try await workspace.token(tenant: tenant)) }
        for (index, token) in tokens.enumerated() {
            try await workspace.makeDevice("writer\(index).db")
            try await workspace.makeDevice("reader\(index).db")
            try await workspace.tool(["sql", "writer\(index).db", "INSERT INTO note VALUES ('n\(index)', 'Tenant \(index)', NULL, 'w')"])
            _ = try await workspace.sync("writer\(index).db", server: url, token: token)
        }
        for (index, token) in tokens.enumerated() {
            _ = try await workspace.sync("reader\(index).db", server: url, token: token)
            #expect(try workspace.notes("reader\(index).db") == [["n\(index)", "Tenant \(index)", "NULL", "w"]], "its own tenant's row only")
        }
        server.send(SIGTERM)
        let exit = await server.wait(timeout: .seconds(60))
        #expect(exit.status == 0 && !exit.signalled, "\(exit.errors)")

        let files = try FileManager.default.contentsOfDirectory(atPath: workspace.directory.file("store/tenants").path)
            .filter { $0.hasSuffix(".db") }
        #expect(files.count == 2, "\(files)")
        #expect(files.allSatisfy { $0.utf8.count == 67 && $0.dropLast(3).allSatisfy(\.isHexDigit) }, "\(files)")
        #expect(!FileManager.default.fileExists(atPath: workspace.directory.url.deletingLastPathComponent().appendingPathComponent("globex").path))

        // Started again on the directory, the server has both tenants' rows for a new device.
        let (again, againURL) = try await workspace.serve(storeDirectory: "store", flags: ["--open-tenant-files", "1"])
        for (index, token) in tokens.enumerated() {
            try await workspace.makeDevice("late\(index).db")
            _ = try await workspace.sync("late\(index).db", server: againURL, token: token)
            #expect(try workspace.notes("late\(index).db") == [["n\(index)", "Tenant \(index)", "NULL", "w"]])
        }
        again.send(SIGTERM)
        _ = await again.wait(timeout: .seconds(60))
    }

    /// A tenant's name is whatever its token says: reading as a tenant that never wrote makes no file.
    @Test func aPullForATenantThatNeverWroteMakesNoFile() async throws {
        let workspace = try SyncWorkspace()
        let (server, url) = try await workspace.serve(storeDirectory: "store")
        for tenant in ["never-wrote", "nor-this-one"] {
            let body = try RawHTTP.json(PullRequest(replica: "r", cursor: 0, limit: 10))
            let answer = try await RawHTTP.send(URL(string: url)!, "v1/pull", token: try await workspace.token(tenant: tenant), body: body)
            #expect(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
        }
        server.send(SIGTERM)
        _ = await server.wait(timeout: .seconds(60))
        #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.directory.file("store/tenants").path) == [])
    }

    @Test func aStoreDirectoryWithAStoreFileOrAnOpenFileLimitAloneIsAUsageError() async throws {
        let workspace = try SyncWorkspace()
        let cases: [([String], String)] = [
            (["--store", "server.db", "--store-dir", "store"], "--store and --store-dir name two stores"),
            (["--store", "server.db", "--open-tenant-files", "4"], "--open-tenant-files goes with --store-dir DIR"),
            (["--store-dir", "store", "--open-tenant-files", "0"], "--open-tenant-files takes a number of at least 1"),
        ]
        for (flags, message) in cases {
            let exit = try await workspace.attempt(["serve", "--port", "0", "--secret-file", "secret"] + flags)
            #expect(exit.status == 2 && exit.errors.contains(message), "\(flags): \(exit.errors)")
        }
        #expect(!FileManager.default.fileExists(atPath: workspace.directory.file("store").path))
        let help = try await workspace.attempt(["serve", "--help"])
        #expect(help.output.contains("--store-dir DIR") && help.output.contains("--open-tenant-files N"))
    }
}
#endif
