// These run `boutique serve`, which needs the HTTP front end, and mint tokens with libcrypto.
#if BOUTIQUE_SYNC_HTTP && canImport(CCrypto)
import BoutiqueSyncCore
import BoutiqueTestSupport
import CCrypto
import Foundation
import Testing

/// `boutique serve` taking JSON Web Tokens minted here with real RSA and P-256 keys, as an identity
/// provider mints them: devices sync with them (`boutique sync`), each refusal is a 401 naming its
/// check in the answer and the log, and neither repeats the token.
@Suite(.serialized) struct JWTProcessTests {
    static let audience = "https://sync.example.test"
    static let issuer = "https://id.example.test/"

    static func claims(user: String = "ana", tenant: String = "acme", _ more: [String: Any] = [:]) -> [String: Any] {
        TestJWT.claims(user: user, tenant: tenant, ["aud": audience, "iss": issuer].merging(more) { _, given in given })
    }

    /// The 401 `token` gets on a pull: its reason, after checking that neither the answer nor the
    /// server's log holds the token or any long part of it.
    static func refusal(of token: String, at url: String, server: ChildProcess, sourceLocation: SourceLocation = #_sourceLocation)
        async throws -> String
    {
        let answer = try await RawHTTP.send(URL(string: url)!, "v1/pull", token: token, body: Data("{}".utf8))
        #expect(answer.status == 401, sourceLocation: sourceLocation)
        let text = String(decoding: answer.body, as: UTF8.self)
        let reason = answer.errorBody?.error.reason ?? text
        try await waitUntil("the refusal is logged") { server.errors.contains(reason) }
        for part in token.split(separator: ".") where part.count >= 8 {
            #expect(!text.contains(part), "the answer repeats the token", sourceLocation: sourceLocation)
            #expect(!server.errors.contains(part), "the log repeats the token", sourceLocation: sourceLocation)
        }
        return reason
    }

    @Test func devicesSyncWithJWTsFromAKeySetFileAndEachRefusalNamesItsCheck() async throws {
        let workspace = try SyncWorkspace()
        let rsa = TestSigningKey(.rsa, id: "rsa-2026")
        let ec = TestSigningKey(.p256, id: "ec-2026")
        try Data(TestJWT.keySet([rsa.jwk(), ec.jwk()])).write(to: workspace.directory.file("jwks.json"))
        let (server, url) = try await workspace.serve(flags: [
            "--jwks", "jwks.json", "--jwt-audience", Self.audience, "--jwt-issuer", Self.issuer,
        ])
        for device in ["a.db", "b.db"] { try await workspace.makeDevice(device) }
        try await workspace.tool(["sql", "a.db", "INSERT INTO note VALUES ('n1', 'Signed by RSA', NULL, 'a')"])
        let pushed = try await workspace.sync("a.db", server: url, token: rsa.token(Self.claims()))
        #expect(pushed.contains("pushed 1 change"), "\(pushed)")
        _ = try await workspace.sync("b.db", server: url, token: ec.token(Self.claims(user: "ben")))
        #expect(try workspace.notes("b.db").map { $0[0] } == ["n1"])
        // The server's own tokens keep working beside them.
        let own = try await workspace.sync("b.db", server: url, token: try await workspace.token())
        #expect(own.contains("pulled 0 changes"), "\(own)")
        #expect(server.errors.contains("user=ben"), "the request log names the JWT's subject")

        let now = Int(Date().timeIntervalSince1970)
        let stranger = TestSigningKey(.rsa, id: "not-published")
        let genuine = rsa.token(Self.claims())
        var parts = genuine.split(separator: ".").map(String.init)
        var signature = Base64.decodeURLSafe(parts[2])!
        signature[0] ^= 0x80
        parts[2] = Base64.encodeURLSafe(signature)
        let rsaAsHMACSecret = TestJWT.signed(header: ["alg": "HS256", "kid": rsa.id], claims: Self.claims()) { message in
            let secret = rsa.publicModulus
            var out = [UInt8](repeating: 0, count: 32)
            _ = boutique_hmac_sha256(secret, secret.count, message, message.count, &out)
            return out
        }
        let refused: [(String, String)] = [
            ("expired", rsa.token(Self.claims(["exp": now - 3_600]))),
            ("not yet valid", rsa.token(Self.claims(["nbf": now + 3_600]))),
            ("wrong audience", rsa.token(Self.claims(["aud": "https://elsewhere.example.test"]))),
            ("wrong issuer", ec.token(Self.claims(["iss": "https://impostor.example.test/"]))),
            ("unsupported algorithm", TestJWT.part(["alg": "none", "typ": "JWT"]) + "." + TestJWT.part(Self.claims()) + "."),
            ("unsupported algorithm", rsaAsHMACSecret),
            ("unknown key", stranger.token(Self.claims())),
            ("bad signature", parts.joined(separator: ".")),
            ("malformed", "bm90LWpzb24.eyJzdWIiOiJhbmEifQ.c2lnbmF0dXJl"),
        ]
        for (check, token) in refused {
            let reason = try await Self.refusal(of: token, at: url, server: server)
            #expect(reason.hasPrefix(check + ":"), "\(check): \(reason)")
        }
        #expect(server.errors.components(separatedBy: "auth-failure").count - 1 == refused.count)
        server.send(SIGTERM)
        _ = await server.wait()
    }

    /// Keys read from a JWK Set URL served by the test: a token of a published key syncs, one naming
    /// a key the set does not have is refused as unknown.
    @Test func keysComeFromAJWKSURL() async throws {
        let workspace = try SyncWorkspace()
        let ec = TestSigningKey(.p256, id: "published")
        let provider = try CannedHTTPServer(answers: ["/.well-known/jwks.json": TestJWT.keySet([ec.jwk()])])
        defer { provider.stop() }
        let (server, url) = try await workspace.serve(flags: [
            "--jwks-url", provider.url.appendingPathComponent(".well-known/jwks.json").absoluteString, "--tenant-claim", "org",
        ])
        #expect(provider.requests.withLock { $0 } == ["/.well-known/jwks.json"], "read once at start")
        try await workspace.makeDevice("a.db")
        try await workspace.tool(["sql", "a.db", "INSERT INTO note VALUES ('n1', 'Keys from a URL', NULL, 'a')"])
        let pushed = try await workspace.sync("a.db", server: url, token: ec.token(TestJWT.claims(["org": "globex"])))
        #expect(pushed.contains("pushed 1 change"), "\(pushed)")
        #expect(try workspace.serverLog(tenant: "globex").changes == 1, "the tenant is the org claim's")
        let reason = try await Self.refusal(of: TestSigningKey(.p256, id: "unpublished").token(TestJWT.claims(["org": "globex"])), at: url, server: server)
        #expect(reason.hasPrefix("unknown key:"), "\(reason)")
        server.send(SIGTERM)
        _ = await server.wait()
    }

    /// A single-tenant app with HS256 tokens (Supabase's kind) and no token secret of the server's own.
    @Test func hs256TokensOfASingleTenantApp() async throws {
        let workspace = try SyncWorkspace()
        let secret = "a JWT secret shared with the identity provider, 40+ bytes"
        try Data((secret + "\n").utf8).write(to: workspace.directory.file("jwt-secret"))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: workspace.directory.file("jwt-secret").path)
        let server = try workspace.start([
            "serve", "--port", "0", "--store", "server.db", "--jwt-secret-file", "jwt-secret", "--tenant", "notes",
            "--jwt-audience", "authenticated",
        ])
        let url = String(try await server.line(startingWith: "listening on ").dropFirst("listening on ".count))
        try await workspace.makeDevice("a.db")
        try await workspace.tool(["sql", "a.db", "INSERT INTO note VALUES ('n1', 'HS256', NULL, 'a')"])
        var claims = TestJWT.claims(user: "7f1c0e9a-user", ["aud": "authenticated"])
        claims["tenant"] = nil
        let pushed = try await workspace.sync("a.db", server: url, token: TestJWT.hs256(claims, secret: Array(secret.utf8)))
        #expect(pushed.contains("pushed 1 change"), "\(pushed)")
        #expect(try workspace.serverLog(tenant: "notes").changes == 1)
        // The server's own tokens are not taken: it has no secret for them.
        let own = try await RawHTTP.send(URL(string: url)!, "v1/pull", token: try await workspace.token(), body: Data("{}".utf8))
        #expect(own.status == 401)
        server.send(SIGTERM)
        _ = await server.wait()
    }

    @Test func serveRefusesAJWTSetupThatCannotWork() async throws {
        let workspace = try SyncWorkspace()
        try Data(#"{"keys": [{"kty": "oct", "k": "c2VjcmV0"}]}"#.utf8).write(to: workspace.directory.file("shared.json"))
        for (arguments, said) in [
            (["--jwks", "shared.json"], "no RSA or P-256 signing key"),
            (["--jwks", "missing.json"], "cannot read the JWK Set file"),
            (["--jwks-url", "ftp://id.example.test/jwks"], "takes an https URL"),
            (["--jwks-url", "http://id.example.test/jwks"], "must be https"),
            (["--jwt-audience", "x"], "rules for JWTs"),
        ] {
            let exit = try await workspace.attempt(["serve", "--port", "0", "--store", "server.db"] + arguments)
            #expect(exit.status != 0)
            #expect(exit.errors.contains(said), "\(arguments): \(exit.errors)")
        }
        let none = try await workspace.attempt(["serve", "--port", "0", "--store", "server.db"])
        #expect(none.errors.contains("--secret-file FILE is required"), "\(none.errors)")
    }
}
#endif
