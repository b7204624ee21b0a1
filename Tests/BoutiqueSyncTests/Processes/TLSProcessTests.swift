// These run `boutique serve`, which needs the HTTP front end: they are compiled where the package has it.
#if BOUTIQUE_SYNC_HTTP
import BoutiqueDB
import BoutiqueSync
import BoutiqueTestSupport
import Foundation
import Testing

/// `boutique serve --tls-cert --tls-key`: HTTPS from the server itself, devices that trust a private
/// certificate authority (`--ca-file`, ``SyncServerTrust``) and only it, and the files it refuses at start.
/// The authority and the server's certificate (for IP 127.0.0.1) are made with `openssl` at test time
/// (``TestCertificates``).
@Suite(.serialized) struct TLSProcessTests {
    static let tlsFlags = ["--tls-cert", "server.pem", "--tls-key", "server.key"]

    /// Runs `openssl s_client` against the port with `flags`, and returns how it ended.
    static func handshake(_ workspace: SyncWorkspace, port: String, _ flags: [String]) async throws -> ChildProcess.Exit {
        try await ChildProcess.run(
            executable: URL(fileURLWithPath: "/usr/bin/openssl"),
            ["s_client", "-connect", "127.0.0.1:\(port)", "-CAfile", "ca.pem", "-verify_return_error", "-brief"] + flags,
            in: workspace.url, input: Data())
    }

    @Test func devicesTrustingThePrivateAuthoritySyncOverTLS() async throws {
        let workspace = try SyncWorkspace()
        try await TestCertificates.make(in: workspace.directory)
        let (server, url) = try await workspace.serve(flags: Self.tlsFlags + ["--metrics-port", "0"])
        defer { server.send(SIGKILL) }
        #expect(url.hasPrefix("https://127.0.0.1:"), "\(url)")
        let port = String(url.split(separator: ":").last ?? "")

        // A TLS 1.3 and a TLS 1.2 handshake, the chain verified against the authority; TLS 1.1 refused.
        let tls13 = try await Self.handshake(workspace, port: port, ["-tls1_3"])
        #expect(tls13.status == 0 && tls13.errors.contains("TLSv1.3") && tls13.errors.contains("Verification: OK"), "\(tls13.errors)")
        let tls12 = try await Self.handshake(workspace, port: port, ["-tls1_2"])
        #expect(tls12.status == 0 && tls12.errors.contains("TLSv1.2"), "\(tls12.errors)")
        // The client allows TLS 1.1 (OpenSSL's security level 0), so that a refusal is the server's.
        let tls11 = try await Self.handshake(workspace, port: port, ["-tls1_1", "-cipher", "DEFAULT@SECLEVEL=0"])
        #expect(tls11.status != 0, "\(tls11.errors)")

        // A whole sync: pushed by one device, pulled by another, each trusting the authority.
        let token = try await workspace.token()
        for device in ["a.db", "b.db"] { try await workspace.makeDevice(device) }
        try await workspace.tool(["sql", "a.db", "INSERT INTO note VALUES ('n1', 'One', 'over TLS', 'a'), ('n2', 'Two', NULL, 'a')"])
        try await workspace.tool(["sync", "a.db", "--server", url, "--token", token, "--tables", "note", "--ca-file", "ca.pem"])
        try await workspace.tool(["sync", "b.db", "--server", url, "--token", token, "--tables", "note", "--ca-file", "ca.pem"])
        #expect(try workspace.notes("b.db") == workspace.notes("a.db"))
        #expect(try workspace.notes("b.db").count == 2)

        // Membership requests go the same way.
        let members = try await workspace.attempt([
            "members", "--server", url, "--token", token, "--table", "note", "--key", "n1", "--ca-file", "ca.pem",
        ])
        #expect(!members.errors.contains("not trusted"), "\(members.errors)")

        // The metrics stay plain HTTP on 127.0.0.1.
        let line = try await server.line(startingWith: "metrics on ")
        #expect(line.hasPrefix("metrics on http://127.0.0.1:"), "\(line)")
        let metrics = try #require(URL(string: String(line.dropFirst("metrics on ".count))))
        #expect(try await RawHTTP.send(metrics.deletingLastPathComponent(), "metrics", method: "GET").status == 200)
        server.send(SIGTERM)
        #expect(await server.wait().status == 0)
    }

    @Test func devicesThatDoNotTrustTheAuthorityAreRefusedAtOnce() async throws {
        let workspace = try SyncWorkspace()
        try await TestCertificates.make(in: workspace.directory)
        let (server, url) = try await workspace.serve(flags: Self.tlsFlags)
        defer { server.send(SIGKILL) }
        let token = try await workspace.token()
        try await workspace.makeDevice("a.db")
        try await workspace.tool(["sql", "a.db", "INSERT INTO note VALUES ('n1', 'One', NULL, 'a')"])
        let sync = ["sync", "a.db", "--server", url, "--token", token, "--tables", "note"]

        // The system's authorities do not know the private one; another private one did not sign it.
        for trust in [[], ["--ca-file", "other-ca.pem"]] {
            let refused = try await workspace.attempt(sync + trust, timeout: .seconds(60))
            #expect(refused.status != 0 && !refused.signalled, "\(trust): \(refused.output) \(refused.errors)")
            #expect(refused.errors.contains("is not trusted"), "\(trust): \(refused.errors)")
            #expect(refused.errors.contains(url), "names the server: \(refused.errors)")
        }
        let share = try await workspace.attempt([
            "share", "--server", url, "--token", token, "--table", "note", "--key", "n1", "--with", "bo", "--role", "viewer",
        ])
        #expect(share.status != 0 && share.errors.contains("is not trusted"), "\(share.errors)")
        #expect(try workspace.serverLog().changes == 0, "nothing reached the server")

        // Plain HTTP to the TLS port gets no answer, nor does a device asking for it.
        let plain = url.replacingOccurrences(of: "https://", with: "http://")
        let plainAnswer = try? await RawHTTP.send(try #require(URL(string: plain)), "v1/health", method: "GET")
        #expect(plainAnswer == nil || plainAnswer?.status == 0, "answered \(plainAnswer?.status ?? 0)")
        let plainSync = try await workspace.attempt(
            ["sync", "a.db", "--server", plain, "--token", token, "--tables", "note"], timeout: .seconds(60))
        #expect(plainSync.status != 0, "\(plainSync.output)")

        // `--ca-file` is for https:// only.
        let mixed = try await workspace.attempt(["sync", "a.db", "--server", plain, "--token", token, "--tables", "note", "--ca-file", "ca.pem"])
        #expect(mixed.status != 0 && mixed.errors.contains("--ca-file is for an https:// server"), "\(mixed.errors)")
        server.send(SIGTERM)
        _ = await server.wait()
    }

    @Test func aSwiftDeviceTrustsTheAuthorityThroughItsTransport() async throws {
        let workspace = try SyncWorkspace()
        try await TestCertificates.make(in: workspace.directory)
        let (server, url) = try await workspace.serve(flags: Self.tlsFlags)
        defer { server.send(SIGKILL) }
        let token = try await workspace.token()
        let schema = BoutiqueMigrationPlan { BoutiqueMigration("v1_note") { conn in try conn.execute(SyncWorkspace.schema) } }
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: schema)
        let serverURL = try #require(URL(string: url))

        // Trusting the system's authorities only: refused at once, saying why.
        let untrusting = try await BoutiqueSync(database: database, tables: ["note"], server: .http(serverURL, token: token))
        try await database.write { conn in try conn.execute("INSERT INTO note VALUES ('s1', 'From Swift', 'trusted', 'swift')") }
        do {
            _ = try await untrusting.synchronize()
            Issue.record("a device that does not trust the authority synced")
        } catch BoutiqueError.syncUnavailable(let reason) {
            #expect(reason.contains("is not trusted"), "\(reason)")
        }
        await untrusting.stop()

        let trust = try SyncServerTrust.certificateAuthority(file: workspace.directory.file("ca.pem"))
        #expect(!trust.isSystem)
        let transport: HTTPSyncTransport = .http(serverURL, token: token, trust: trust)
        #expect(transport.trust == trust)
        let trusting = try await BoutiqueSync(database: database, tables: ["note"], server: transport)
        let report = try await trusting.synchronize()
        #expect(report.pushed == 1)
        await trusting.stop()
        await database.close()

        try await workspace.makeDevice("b.db")
        try await workspace.tool(["sync", "b.db", "--server", url, "--token", token, "--tables", "note", "--ca-file", "ca.pem"])
        #expect(try workspace.notes("b.db") == [["s1", "From Swift", "trusted", "swift"]])
        server.send(SIGTERM)
        _ = await server.wait()
    }

    @Test func aCertificateOrKeyThatIsWrongStopsTheStart() async throws {
        let workspace = try SyncWorkspace()
        try await TestCertificates.make(in: workspace.directory)
        let serve = ["serve", "--port", "0", "--secret-file", "secret", "--store", "server.db"]

        // Both options or neither.
        for flags in [["--tls-cert", "server.pem"], ["--tls-key", "server.key"]] {
            let alone = try await workspace.attempt(serve + flags)
            #expect(alone.status != 0 && alone.errors.contains("give both"), "\(flags): \(alone.errors)")
            #expect(!alone.output.contains("listening on"))
        }

        // A key others may read is refused as the secret file is.
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: workspace.directory.file("server.key").path)
        let readable = try await workspace.attempt(serve + Self.tlsFlags)
        #expect(readable.status != 0 && readable.errors.contains("mode 644") && readable.errors.contains("chmod 600"), "\(readable.errors)")
        #expect(!readable.output.contains("listening on"))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: workspace.directory.file("server.key").path)

        // Not PEM, swapped files, and a key that is not the certificate's.
        try Data("not a certificate\n".utf8).write(to: workspace.directory.file("garbage.pem"))
        let cases: [(flags: [String], says: String)] = [
            (["--tls-cert", "garbage.pem", "--tls-key", "server.key"], "holds no PEM certificate"),
            (["--tls-cert", "server.key", "--tls-key", "server.key"], "swapped"),
            // GnuTLS's own reason, passed on from libmicrohttpd's log.
            (["--tls-cert", "server.pem", "--tls-key", "other-ca.key"], "the given key do not match"),
        ]
        for (flags, says) in cases {
            let refused = try await workspace.attempt(serve + flags)
            #expect(refused.status != 0 && refused.errors.contains(says), "\(flags): \(refused.errors)")
            #expect(!refused.output.contains("listening on"), "\(flags): nothing is served")
        }
    }
}
#endif
