import BoutiqueTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Secrets the tool reads — the token secret, a PostgreSQL URL, a bearer token — are refused when
/// other users may read them or anyone could guess them, and need never be on a command line.
@Suite("boutique secrets")
struct ToolSecretTests {
    /// The permission bits of `path`.
    static func mode(_ path: URL) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: path.path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    static func write(_ text: String, to file: URL, mode: Int) throws {
        try Data(text.utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file.path)
    }

    /// The README's way to make a secret, run by the shell.
    static func makeSecret(in directory: URL) async throws {
        let made = try await ChildProcess.run(
            executable: URL(fileURLWithPath: "/bin/sh"), ["-c", "(umask 077; openssl rand -base64 32 > secret)"], in: directory)
        #expect(made.status == 0, "\(made.errors)")
    }

    @Test func tokenRefusesASecretOthersCanReadOrAnyoneCouldGuess() async throws {
        try await withTemporaryDirectory { directory in
            try await Self.makeSecret(in: directory)
            let secret = directory.appendingPathComponent("secret")
            #expect(try Self.mode(secret) == 0o600)
            let arguments = ["token", "--secret-file", "secret", "--tenant", "acme", "--user", "ana"]
            let made = try await ToolProcess.run(arguments, in: directory)
            #expect(made.status == 0 && made.output.hasPrefix("bq1."), "\(made.errorOutput)")

            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: secret.path)
            let readable = try await ToolProcess.run(arguments, in: directory)
            #expect(readable.status == 1)
            #expect(readable.errorOutput.contains("mode 644") && readable.errorOutput.contains("chmod 600 \(secret.path)"), "\(readable.errorOutput)")
            #expect(readable.output.isEmpty)

            try Self.write(String(repeating: "a", count: 16), to: secret, mode: 0o600)
            let short = try await ToolProcess.run(arguments, in: directory)
            #expect(short.status == 1 && short.errorOutput.contains("at least 32"), "\(short.errorOutput)")
            try Self.write(String(repeating: "a", count: 48), to: secret, mode: 0o600)
            let predictable = try await ToolProcess.run(arguments, in: directory)
            #expect(predictable.status == 1 && predictable.errorOutput.contains("predictable"), "\(predictable.errorOutput)")
        }
    }

    @Test func serveRefusesTwoStoresAndReadsThePostgreSQLURLFromAFileOrTheEnvironment() async throws {
        try await withTemporaryDirectory { directory in
            try await Self.makeSecret(in: directory)
            let serve = ["serve", "--port", "0", "--secret-file", "secret"]
            let both = try await ToolProcess.run(serve + ["--store", "s.db", "--postgres", "postgresql://x@127.0.0.1:1/db"], in: directory)
            #expect(both.status == 2 && both.errorOutput.contains("two stores"), "\(both.errorOutput)")
            let bothFromFile = try await ToolProcess.run(serve + ["--store", "s.db", "--postgres-url-file", "url"], in: directory)
            #expect(bothFromFile.status == 2 && bothFromFile.errorOutput.contains("two stores"), "\(bothFromFile.errorOutput)")
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("s.db").path))

            // A URL nothing listens at: that serve tries it shows where it read it from.
            let url = "postgresql://boutique@127.0.0.1:9/nowhere"
            let urlFile = directory.appendingPathComponent("url")
            try Self.write(url + "\n", to: urlFile, mode: 0o644)
            let readable = try await ToolProcess.run(serve + ["--postgres-url-file", "url"], in: directory)
            #expect(readable.status == 1 && readable.errorOutput.contains("chmod 600"), "\(readable.errorOutput)")
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: urlFile.path)
            // A build without the HTTP front end stops after reading its arguments, before the store.
            #if BOUTIQUE_SYNC_HTTP
            let reached = "127.0.0.1"
            #else
            let reached = "this build has no HTTP front end"
            #endif
            let fromFile = try await ToolProcess.run(serve + ["--postgres-url-file", "url"], in: directory)
            #expect(fromFile.status == 1 && fromFile.errorOutput.contains(reached), "\(fromFile.errorOutput)")
            let fromEnvironment = try await ToolProcess.run(serve, in: directory, environment: ["BOUTIQUE_POSTGRES_URL": url])
            #expect(fromEnvironment.status == 1 && fromEnvironment.errorOutput.contains(reached), "\(fromEnvironment.errorOutput)")
            let none = try await ToolProcess.run(serve, in: directory)
            #expect(none.status == 2 && none.errorOutput.contains("BOUTIQUE_POSTGRES_URL"), "\(none.errorOutput)")
        }
    }

    /// A password on the command line is readable by every user of the machine (`ps`): `--postgres`
    /// with one is refused before anything is opened, pointing to `--postgres-url-file`.
    @Test(arguments: [
        "postgresql://sync:hunter2@127.0.0.1:9/db", "postgres://sync:hunter2@127.0.0.1/db?sslmode=disable",
        "postgresql://sync@127.0.0.1:9/db?sslmode=disable&password=hunter2", "host=127.0.0.1 port=9 user=sync password=hunter2",
        "host=127.0.0.1 PASSWORD = hunter2",
    ])
    func serveRefusesAPostgreSQLPasswordOnTheCommandLine(_ url: String) async throws {
        try await withTemporaryDirectory { directory in
            try await Self.makeSecret(in: directory)
            let refused = try await ToolProcess.run(["serve", "--port", "0", "--secret-file", "secret", "--postgres", url], in: directory)
            #expect(refused.status == 2, "\(refused.errorOutput)")
            #expect(refused.errorOutput.contains("password") && refused.errorOutput.contains("--postgres-url-file"), "\(refused.errorOutput)")
            #expect(!refused.errorOutput.contains("hunter2"), "the message does not repeat the password")
        }
    }

    /// The same URLs without a password are taken (and tried: nothing listens there).
    @Test(arguments: ["postgresql://sync@127.0.0.1:9/db", "postgresql://sync@127.0.0.1:9/db?sslmode=disable", "host=127.0.0.1 port=9 user=sync"])
    func serveTakesAPostgreSQLURLWithoutAPassword(_ url: String) async throws {
        try await withTemporaryDirectory { directory in
            try await Self.makeSecret(in: directory)
            let tried = try await ToolProcess.run(["serve", "--port", "0", "--secret-file", "secret", "--postgres", url], in: directory)
            #if BOUTIQUE_SYNC_HTTP
            #expect(tried.status == 1 && tried.errorOutput.contains("127.0.0.1"), "\(tried.errorOutput)")
            #else
            #expect(tried.status == 1, "\(tried.errorOutput)")
            #endif
            #expect(!tried.errorOutput.contains("--postgres-url-file"), "\(tried.errorOutput)")
        }
    }

    /// Tokens name tenants and users of one spelling: `boutique token` refuses the others.
    @Test(arguments: [("", "empty"), ("ana\nadmin", "U+A"), ("Jose\u{301}", "NFC"), (String(repeating: "a", count: 257), "257 bytes")])
    func tokenRefusesANameWithoutOneSpelling(_ name: String, _ says: String) async throws {
        try await withTemporaryDirectory { directory in
            try await Self.makeSecret(in: directory)
            for (tenant, user) in [("acme", name), (name, "ana")] {
                let made = try await ToolProcess.run(["token", "--secret-file", "secret", "--tenant", tenant, "--user", user], in: directory)
                #expect(made.status == 1 && made.output.isEmpty, "\(made.output)")
                #expect(made.errorOutput.contains(says), "\(made.errorOutput)")
            }
        }
    }

    #if BOUTIQUE_SYNC_HTTP
    /// Starts `boutique serve` on a fresh SQLite store and returns it with its address.
    static func serve(in directory: URL, _ extra: [String] = []) async throws -> (ToolProcess.Running, URL) {
        let server = try ToolProcess.start(
            ["serve", "--port", "0", "--secret-file", "secret", "--store", "server.db"] + extra, in: directory)
        let line = try await server.process.line(startingWith: "listening on ")
        return (server, try #require(URL(string: String(line.dropFirst("listening on ".count)))))
    }

    static func request(_ url: URL, _ path: String, method: String = "POST", token: String? = nil, body: String = "{}") async throws -> Int {
        var request = URLRequest(url: url.appendingPathComponent(path))
        request.httpMethod = method
        if method == "POST" { request.httpBody = Data(body.utf8) }
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        let (_, response) = try await URLSession.shared.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }

    @Test func serveKeepsItsStoreToItsOwnerAndLogsEveryRequestAsText() async throws {
        try await withTemporaryDirectory { directory in
            try await Self.makeSecret(in: directory)
            let (server, url) = try await Self.serve(in: directory)
            for name in ["server.db", "server.db-wal", "server.db-shm"] {
                let file = directory.appendingPathComponent(name)
                let mode = try Self.mode(file)
                #expect(mode == 0o600, "\(name) is \(String(mode, radix: 8))")
            }
            let token = "bq1.eyJ0ZW5hbnQiOiJhY21lIn0.forged"
            #expect(try await Self.request(url, "v1/health", method: "GET") == 200)
            #expect(try await Self.request(url, "v1/pull", token: token) == 401)
            server.process.send(SIGTERM)
            let ended = await server.finish()
            #expect(ended.status == 0)
            let lines = ended.errorOutput.split(separator: "\n").map(String.init)
            let health = try #require(lines.first { $0.contains(" request ") && $0.contains("path=/v1/health") }, "\(lines)")
            for field in ["client=127.0.0.1", "method=GET", "status=200", "tenant=-", "user=-", "in=0", "out=", "ms=", "id="] {
                #expect(health.contains(field), "\(health) lacks \(field)")
            }
            let refused = try #require(lines.first { $0.contains(" auth-failure ") }, "\(lines)")
            #expect(refused.contains("path=/v1/pull") && refused.contains("reason="))
            #expect(lines.contains { $0.contains(" request ") && $0.contains("status=401") })
            #expect(!ended.errorOutput.contains(token), "a token is never logged")
        }
    }

    @Test func serveLogsJSONObjectsWithLogFormatJSON() async throws {
        try await withTemporaryDirectory { directory in
            try await Self.makeSecret(in: directory)
            let refusedFormat = try await ToolProcess.run(
                ["serve", "--port", "0", "--secret-file", "secret", "--store", "server.db", "--log-format", "xml"], in: directory)
            #expect(refusedFormat.status == 2)
            let (server, url) = try await Self.serve(in: directory, ["--log-format", "json"])
            let token = try await ToolProcess.run(["token", "--secret-file", "secret", "--tenant", "acme", "--user", "ana"], in: directory)
                .output.trimmingCharacters(in: .whitespacesAndNewlines)
            let pull = #"{"replica":"r","cursor":0,"limit":1,"waitMilliseconds":0,"protocolVersion":2}"#
            #expect(try await Self.request(url, "v1/pull", token: token, body: pull) == 200)
            server.process.send(SIGTERM)
            let ended = await server.finish()
            let objects = ended.errorOutput.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            let served = try #require(objects.first { $0["event"] as? String == "request" }, "\(ended.errorOutput)")
            #expect(served["tenant"] as? String == "acme" && served["user"] as? String == "ana" && served["status"] as? Int == 200)
            #expect(served["path"] as? String == "/v1/pull" && served["in"] as? Int == pull.utf8.count && served["id"] is String)
        }
    }

    @Test func syncAndTheMembershipCommandsReadTheTokenFromAFileOrTheEnvironment() async throws {
        try await withTemporaryDirectory { directory in
            try await Self.makeSecret(in: directory)
            let (server, url) = try await Self.serve(in: directory)
            let token = try await ToolProcess.run(["token", "--secret-file", "secret", "--tenant", "acme", "--user", "ana"], in: directory)
                .output.trimmingCharacters(in: .whitespacesAndNewlines)
            let created = try await ToolProcess.run(
                ["sql", "a.db", "CREATE TABLE note(id TEXT PRIMARY KEY NOT NULL, title TEXT)", "--create"], in: directory)
            #expect(created.status == 0)
            let sync = ["sync", "a.db", "--server", url.absoluteString, "--tables", "note"]
            let tokenFile = directory.appendingPathComponent("token")
            try Self.write(token + "\n", to: tokenFile, mode: 0o644)
            let readable = try await ToolProcess.run(sync + ["--token-file", "token"], in: directory)
            #expect(readable.status == 1 && readable.errorOutput.contains("chmod 600"), "\(readable.errorOutput)")
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: tokenFile.path)
            let fromFile = try await ToolProcess.run(sync + ["--token-file", "token"], in: directory)
            #expect(fromFile.status == 0 && fromFile.output.contains("up to date"), "\(fromFile.errorOutput)")
            let fromEnvironment = try await ToolProcess.run(sync, in: directory, environment: ["BOUTIQUE_SYNC_TOKEN": token])
            #expect(fromEnvironment.status == 0 && fromEnvironment.output.contains("up to date"), "\(fromEnvironment.errorOutput)")
            let none = try await ToolProcess.run(sync, in: directory)
            #expect(none.status == 2 && none.errorOutput.contains("BOUTIQUE_SYNC_TOKEN"), "\(none.errorOutput)")
            let both = try await ToolProcess.run(sync + ["--token", token, "--token-file", "token"], in: directory)
            #expect(both.status == 2)
            // The membership commands read it the same way: without rules the server has no spaces,
            // and says so — after the token was read and accepted.
            let members = try await ToolProcess.run(
                ["members", "--server", url.absoluteString, "--token-file", "token", "--table", "note", "--key", "k"], in: directory)
            #expect(members.status == 1 && !members.errorOutput.contains("401") && !members.errorOutput.contains("required"), "\(members.errorOutput)")
            server.process.send(SIGTERM)
            #expect(await server.finish().status == 0)
        }
    }
    #endif
}
