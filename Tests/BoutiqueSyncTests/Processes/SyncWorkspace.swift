// These run `boutique serve`, which needs the HTTP front end: they are compiled where the package has it.
#if BOUTIQUE_SYNC_HTTP
import BoutiqueSQLite
import BoutiqueTestSupport
import Foundation

/// A folder holding a sync server's store and secret and some device files, driven through the built
/// `boutique` tool as child processes.
final class SyncWorkspace: Sendable {
    let directory: SyncTemporaryDirectory
    var url: URL { directory.url }

    static let schema = "CREATE TABLE note(id TEXT PRIMARY KEY NOT NULL, title TEXT, body TEXT, device TEXT)"

    init() throws {
        directory = try SyncTemporaryDirectory()
        // A secret of its own: a device of another test, left pointing at a port this workspace's server
        // was later given, must not be let in (it once made a tenant in another test's store).
        try Data("a secret for the sync process tests, \(UUID().uuidString)\n".utf8).write(to: directory.file("secret"))
        // The server refuses a secret other users may read.
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: directory.file("secret").path)
    }

    /// Runs `boutique arguments…` and returns how it ended, whatever its status. With `environment`,
    /// those variables are set for it (see ``start(_:environment:measuringPeakMemory:)``).
    func attempt(
        _ arguments: [String], environment: [String: String] = [:], timeout: Duration = .seconds(120), measuringPeakMemory: Bool = false
    ) async throws -> ChildProcess.Exit {
        try await start(arguments, environment: environment, measuringPeakMemory: measuringPeakMemory).wait(timeout: timeout)
    }

    /// Starts `boutique arguments…` in the workspace. With `environment`, those variables are set for
    /// it (through `/bin/sh`, which then runs it in its place: the same process). With
    /// `measuringPeakMemory`, its own peak is sampled (``ChildProcess/Exit/peakResidentBytes``).
    func start(_ arguments: [String], environment: [String: String] = [:], measuringPeakMemory: Bool = false) throws -> ChildProcess {
        guard !environment.isEmpty else {
            return try ChildProcess(
                executable: ChildProcess.executable("boutique"), arguments, in: url, measuringPeakMemory: measuringPeakMemory)
        }
        let settings = environment.sorted { $0.key < $1.key }.map { "export \($0.key)='\($0.value)'; " }.joined()
        return try ChildProcess(
            executable: URL(fileURLWithPath: "/bin/sh"),
            ["-c", settings + #"exec "$0" "$@""#, ChildProcess.executable("boutique").path] + arguments, in: url,
            measuringPeakMemory: measuringPeakMemory)
    }

    /// Runs `boutique arguments…` and fails unless it exits 0.
    @discardableResult
    func tool(_ arguments: [String], timeout: Duration = .seconds(120)) async throws -> String {
        let exit = try await ChildProcess.run("boutique", arguments, in: url, timeout: timeout)
        guard exit.status == 0, !exit.signalled else {
            throw ChildProcessError("boutique \(arguments.joined(separator: " ")) ended with \(exit.status): \(exit.output) \(exit.errors)")
        }
        return exit.output
    }

    /// A token for the workspace's secret.
    func token(tenant: String = "acme", user: String = "ana") async throws -> String {
        try await tool(["token", "--secret-file", "secret", "--tenant", tenant, "--user", user, "--expires", "1h"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Starts `boutique serve` on the store `file` (or the directory `storeDirectory`, a file per
    /// tenant, or the PostgreSQL database `postgres`), with `flags` besides, and returns it with its
    /// address. With `environment`, those variables are set
    /// for it (see ``start(_:environment:measuringPeakMemory:)``).
    func serve(
        port: Int = 0, postgres: String? = nil, storeDirectory: String? = nil, rules: String? = nil, store file: String = "server.db",
        flags: [String] = [], environment: [String: String] = [:]
    ) async throws -> (process: ChildProcess, url: String) {
        let store = postgres.map { ["--postgres", $0] } ?? storeDirectory.map { ["--store-dir", $0] } ?? ["--store", file]
        let arguments = ["serve", "--port", String(port), "--secret-file", "secret"] + store + (rules.map { ["--rules", $0] } ?? []) + flags
        let process = try start(arguments, environment: environment)
        let line = try await process.line(startingWith: "listening on ")
        return (process, String(line.dropFirst("listening on ".count)))
    }

    /// Creates a device's database file with the `note` table.
    func makeDevice(_ name: String) async throws {
        try await tool(["sql", name, Self.schema, "--create"])
    }

    func sync(_ device: String, server: String, token: String) async throws -> String {
        try await tool(["sync", device, "--server", server, "--token", token, "--tables", "note"])
    }

    /// The `note` rows of a file, read directly, in key order.
    func notes(_ device: String) throws -> [[String]] {
        let connection = try Connection(path: directory.file(device).path, flags: [.readOnly])
        defer { connection.close() }
        return try connection.cachedRows("SELECT id, title, body, device FROM note ORDER BY id", []).map { $0.map(\.description) }
    }

    /// (changes logged, distinct rows) in the server store's log for `tenant`.
    func serverLog(tenant: String = "acme") throws -> (changes: Int, rows: Int) {
        let connection = try Connection(path: directory.file("server.db").path, flags: [.readOnly])
        defer { connection.close() }
        let row = try connection.cachedRows(
            "SELECT count(*), count(DISTINCT tbl || ':' || hex(key)) FROM boutique_sync_server_log WHERE tenant = ?", [.text(tenant)])
        guard case .integer(let changes)? = row.first?[0], case .integer(let rows)? = row.first?[1] else { return (0, 0) }
        return (Int(changes), Int(rows))
    }
}
#endif
