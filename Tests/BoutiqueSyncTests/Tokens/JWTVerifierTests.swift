#if canImport(CCrypto)
import BoutiqueSyncCore
import CCrypto
@testable import BoutiqueSyncServer
import Foundation
import Testing

/// The JWT verifier against tokens minted here with real RSA and P-256 keys: what it accepts, and
/// each refusal with the check it names.
@Suite struct JWTVerifierTests {
    static let rsa = TestSigningKey(.rsa, id: "rsa-1")
    static let ec = TestSigningKey(.p256, id: "ec-1")
    static let secret = Array("an HS256 secret shared with the identity provider, 48+".utf8)

    static func keys(_ signing: [TestSigningKey] = [rsa, ec]) throws -> JSONWebKeySet {
        try JSONWebKeySet(json: TestJWT.keySet(signing.map { $0.jwk() }))
    }

    static func verifier(secret: [UInt8]? = nil, rules: JWTClaimRules = JWTClaimRules()) throws -> JWTVerifier {
        try JWTVerifier(keys: try keys(), secret: secret, rules: rules)
    }

    /// The reason `token` is refused with, or `nil` when it is accepted.
    static func refusal(_ token: String, by verifier: JWTVerifier, at date: Date = Date()) async -> String? {
        do {
            _ = try await verifier.verify(token, at: date)
            return nil
        } catch BoutiqueError.syncRefused(let reason) {
            return reason
        } catch {
            return "unexpected: \(error)"
        }
    }

    @Test func rs256ES256AndHS256TokensSayTheirTenantUserAndExpiry() async throws {
        let verifier = try Self.verifier(secret: Self.secret)
        let expiry = Date().addingTimeInterval(600)
        for token in [
            Self.rsa.token(TestJWT.claims(user: "ana", tenant: "acme", exp: expiry)),
            Self.ec.token(TestJWT.claims(user: "ana", tenant: "acme", exp: expiry)),
            TestJWT.hs256(TestJWT.claims(user: "ana", tenant: "acme", exp: expiry), secret: Self.secret),
        ] {
            let claims = try await verifier.verify(token)
            #expect(claims == SyncToken(tenant: "acme", user: "ana", expiresAt: Int64(expiry.timeIntervalSince1970)))
        }
    }

    @Test func algNoneAndOtherAlgorithmsAreRefused() async throws {
        let verifier = try Self.verifier(secret: Self.secret)
        let none = TestJWT.part(["alg": "none", "typ": "JWT"]) + "." + TestJWT.part(TestJWT.claims()) + "."
        #expect(await Self.refusal(none, by: verifier)?.hasPrefix("unsupported algorithm") == true)
        for alg in ["None", "RS512", "PS256", "ES384", "HS512", "EdDSA"] {
            let token = Self.rsa.token(TestJWT.claims(), alg: alg)
            #expect(await Self.refusal(token, by: verifier)?.hasPrefix("unsupported algorithm") == true, "\(alg)")
        }
    }

    /// The classic confusion: an HS256 token whose HMAC key is the RSA key's public numbers. Without
    /// an HS256 secret the algorithm is refused; with one, the signature is not that secret's.
    @Test func anRSAPublicKeyUsedAsAnHS256SecretIsRefused() async throws {
        let jwkText = Array(try JSONSerialization.data(withJSONObject: Self.rsa.jwk(), options: [.sortedKeys]))
        for publicBytes in [Self.rsa.publicModulus, jwkText] {
            var header: [String: Any] = ["alg": "HS256", "kid": Self.rsa.id]
            header["typ"] = "JWT"
            let token = TestJWT.signed(header: header, claims: TestJWT.claims()) { message in
                var out = [UInt8](repeating: 0, count: 32)
                _ = boutique_hmac_sha256(publicBytes, publicBytes.count, message, message.count, &out)
                return out
            }
            #expect(await Self.refusal(token, by: try Self.verifier())?.hasPrefix("unsupported algorithm") == true)
            #expect(await Self.refusal(token, by: try Self.verifier(secret: Self.secret))?.hasPrefix("bad signature") == true)
        }
    }

    @Test func aKeyIsUsedWithItsOwnAlgorithmOnly() async throws {
        let verifier = try Self.verifier()
        // ES256 naming the RSA key, RS256 naming the EC key.
        let crossed = TestJWT.signed(header: ["alg": "ES256", "kid": Self.rsa.id], claims: TestJWT.claims(), by: Self.ec.sign)
        #expect(await Self.refusal(crossed, by: verifier)?.hasPrefix("unsupported algorithm") == true)
        let other = TestJWT.signed(header: ["alg": "RS256", "kid": Self.ec.id], claims: TestJWT.claims(), by: Self.rsa.sign)
        #expect(await Self.refusal(other, by: verifier)?.hasPrefix("unsupported algorithm") == true)
    }

    @Test func anRSAAndAnECKeyOfOneIdAreEachUsedForTheirOwnAlgorithm() async throws {
        let rsa = TestSigningKey(.rsa, id: "shared")
        let ec = TestSigningKey(.p256, id: "shared")
        let verifier = try JWTVerifier(keys: try Self.keys([rsa, ec]), secret: nil, rules: JWTClaimRules())
        #expect(try await verifier.verify(ec.token(TestJWT.claims())).user == "ana")
        #expect(try await verifier.verify(rsa.token(TestJWT.claims())).user == "ana")
    }

    @Test func anExpiryPastWhatAnInt64HoldsIsRefusedNotATrap() async throws {
        let verifier = try Self.verifier()
        for exp in [1e19, 1e300] {
            let claims: [String: Any] = ["sub": "ana", "tenant": "acme", "exp": exp]
            #expect(await Self.refusal(Self.rsa.token(claims), by: verifier)?.hasPrefix("malformed") == true)
        }
    }

    @Test func tamperedSignaturesAndClaimsAreRefused() async throws {
        let verifier = try Self.verifier()
        for key in [Self.rsa, Self.ec] {
            let token = key.token(TestJWT.claims())
            var parts = token.split(separator: ".").map(String.init)
            var signature = Base64.decodeURLSafe(parts[2])!
            signature[signature.count / 2] ^= 0x01
            parts[2] = Base64.encodeURLSafe(signature)
            #expect(await Self.refusal(parts.joined(separator: "."), by: verifier)?.hasPrefix("bad signature") == true)
            // Another tenant's claims under the genuine signature.
            let swapped = [parts[0], TestJWT.part(TestJWT.claims(tenant: "globex")), String(token.split(separator: ".")[2])].joined(separator: ".")
            #expect(await Self.refusal(swapped, by: verifier)?.hasPrefix("bad signature") == true)
            // Signed by another key of the same kind under this key's id.
            let impostor = TestSigningKey(key.kind, id: key.id)
            #expect(await Self.refusal(impostor.token(TestJWT.claims()), by: verifier)?.hasPrefix("bad signature") == true)
        }
        let hs = TestJWT.hs256(TestJWT.claims(), secret: Array("another secret of the same length, not the server's".utf8))
        #expect(await Self.refusal(hs, by: try Self.verifier(secret: Self.secret))?.hasPrefix("bad signature") == true)
    }

    @Test func anUnknownKeyIdIsRefused() async throws {
        let verifier = try Self.verifier()
        let stranger = TestSigningKey(.rsa, id: "rotated-in-later")
        #expect(await Self.refusal(stranger.token(TestJWT.claims()), by: verifier)?.hasPrefix("unknown key") == true)
        // Without a kid: the one key of the algorithm's kind is used; with two of the kind, none is.
        #expect(await Self.refusal(Self.rsa.token(TestJWT.claims(), kid: .some(nil)), by: verifier) == nil)
        let two = try JWTVerifier(keys: try Self.keys([Self.rsa, stranger]))
        #expect(await Self.refusal(Self.rsa.token(TestJWT.claims(), kid: .some(nil)), by: two)?.hasPrefix("unknown key") == true)
    }

    @Test func expiryAndNotBeforeAreCheckedWithSixtySecondsOfLeeway() async throws {
        let verifier = try Self.verifier()
        let now = Date()
        let expired = Self.rsa.token(TestJWT.claims(exp: now.addingTimeInterval(-61)))
        #expect(await Self.refusal(expired, by: verifier, at: now)?.hasPrefix("expired") == true)
        let withinLeeway = Self.rsa.token(TestJWT.claims(exp: now.addingTimeInterval(-59)))
        #expect(await Self.refusal(withinLeeway, by: verifier, at: now) == nil)
        let early = Self.rsa.token(TestJWT.claims(["nbf": Int(now.timeIntervalSince1970) + 61]))
        #expect(await Self.refusal(early, by: verifier, at: now)?.hasPrefix("not yet valid") == true)
        let almost = Self.rsa.token(TestJWT.claims(["nbf": Int(now.timeIntervalSince1970) + 59]))
        #expect(await Self.refusal(almost, by: verifier, at: now) == nil)
        var noExpiry = TestJWT.claims()
        noExpiry["exp"] = nil
        #expect(await Self.refusal(Self.rsa.token(noExpiry), by: verifier)?.hasPrefix("malformed") == true)
        #expect(await Self.refusal(Self.rsa.token(TestJWT.claims(["exp": "tomorrow"])), by: verifier)?.hasPrefix("malformed") == true)
    }

    @Test func audienceAndIssuerAreCheckedWhenGiven() async throws {
        let verifier = try Self.verifier(rules: JWTClaimRules(audience: "https://sync.example.com", issuer: "https://id.example.com/"))
        let issuer = ["iss": "https://id.example.com/"]
        for aud: Any in ["https://sync.example.com", ["https://other.example.com", "https://sync.example.com"]] {
            var claims = TestJWT.claims(issuer)
            claims["aud"] = aud
            let token = Self.rsa.token(claims)
            #expect(await Self.refusal(token, by: verifier) == nil)
        }
        for aud: Any? in ["https://other.example.com", ["https://other.example.com"], nil, 7] {
            var claims = TestJWT.claims(issuer)
            claims["aud"] = aud
            #expect(await Self.refusal(Self.rsa.token(claims), by: verifier)?.hasPrefix("wrong audience") == true)
        }
        for iss: Any? in ["https://id.example.com", "https://evil.example.com/", nil] {
            var claims = TestJWT.claims(["aud": "https://sync.example.com"])
            claims["iss"] = iss
            #expect(await Self.refusal(Self.rsa.token(claims), by: verifier)?.hasPrefix("wrong issuer") == true)
        }
        // Not checked when not asked for.
        #expect(await Self.refusal(Self.rsa.token(TestJWT.claims()), by: try Self.verifier()) == nil)
    }

    @Test func tenantComesFromTheNamedClaimOrTheSingleTenant() async throws {
        let namespaced = try Self.verifier(rules: JWTClaimRules(tenantClaim: "https://example.com/tenant"))
        var claims = TestJWT.claims()
        claims["https://example.com/tenant"] = "globex"
        #expect(try await namespaced.verify(Self.rsa.token(claims)).tenant == "globex")
        #expect(await Self.refusal(Self.rsa.token(TestJWT.claims()), by: namespaced)?.hasPrefix("malformed") == true)
        let single = try Self.verifier(rules: JWTClaimRules(tenant: "notes"))
        var bare = TestJWT.claims()
        bare["tenant"] = nil
        #expect(try await single.verify(Self.rsa.token(bare)).tenant == "notes")
    }

    @Test func namesFollowTheSyncNameRule() async throws {
        let verifier = try Self.verifier()
        for (user, tenant) in [("", "acme"), ("ana\nadmin", "acme"), ("Jose\u{301}", "acme"), ("ana", String(repeating: "t", count: 257))] {
            #expect(await Self.refusal(Self.rsa.token(TestJWT.claims(user: user, tenant: tenant)), by: verifier)?.hasPrefix("malformed") == true)
        }
        var noSubject = TestJWT.claims()
        noSubject["sub"] = nil
        #expect(await Self.refusal(Self.rsa.token(noSubject), by: verifier)?.hasPrefix("malformed") == true)
        #expect(try await verifier.verify(Self.rsa.token(TestJWT.claims(user: "José"))).user == "José")
    }

    @Test func malformedTokensAreRefusedWithoutBeingRepeated() async throws {
        let verifier = try Self.verifier(secret: Self.secret)
        let genuine = Self.rsa.token(TestJWT.claims())
        let long = Self.rsa.token(TestJWT.claims(["pad": String(repeating: "x", count: JWTVerifier.maximumTokenBytes)]))
        let crit = TestJWT.signed(header: ["alg": "RS256", "kid": Self.rsa.id, "crit": ["exp"]], claims: TestJWT.claims(), by: Self.rsa.sign)
        let padded = genuine + "=="
        // Nesting deep enough to overflow a recursive parser's stack, within the length cap.
        let deep = Base64.encodeURLSafe(Array((String(repeating: "[", count: 2_500) + String(repeating: "]", count: 2_500)).utf8))
        let nested = deep + "." + TestJWT.part(TestJWT.claims()) + ".AA"
        for token in ["", "a.b", "a.b.c.d", "!!.??.**", genuine + ".", long, crit, padded, nested, TestJWT.part(["typ": "JWT"]) + "." + TestJWT.part(TestJWT.claims()) + ".AA"] {
            let reason = await Self.refusal(token, by: verifier)
            #expect(reason?.hasPrefix("malformed") == true, "\(token.prefix(40)): \(reason ?? "accepted")")
            if token.count > 10 { #expect(reason?.contains(token) == false) }
        }
        let parts = genuine.split(separator: ".")
        for refused in [Self.rsa.token(TestJWT.claims(exp: Date(timeIntervalSinceNow: -3_600)))] + [String(parts[0] + "." + parts[1] + ".AAAA")] {
            let reason = await Self.refusal(refused, by: verifier) ?? ""
            for part in refused.split(separator: ".") { #expect(!reason.contains(part)) }
        }
    }

    @Test func keySetsAreReadWithinBoundsAndKeepOnlySigningKeys() throws {
        let tooMany = TestJWT.keySet(Array(repeating: Self.rsa.jwk(), count: JSONWebKeySet.maximumKeys + 1))
        #expect(throws: BoutiqueError.self) { try JSONWebKeySet(json: tooMany) }
        let huge = TestJWT.keySet([Self.rsa.jwk().merging(["x5c": String(repeating: "A", count: JSONWebKeySet.maximumBytes)]) { a, _ in a }])
        #expect(throws: BoutiqueError.self) { try JSONWebKeySet(json: huge) }
        #expect(throws: BoutiqueError.self) { try JSONWebKeySet(json: Array(#"{"keys": "none"}"#.utf8)) }
        #expect(throws: BoutiqueError.self) { try JSONWebKeySet(json: TestJWT.keySet([])) }

        var offCurve = Self.ec.jwk()
        var y = Base64.decodeURLSafe(offCurve["y"]!)!
        y[31] ^= 1
        offCurve["y"] = Base64.encodeURLSafe(y)
        offCurve["kid"] = "bent"
        let weak = TestSigningKey(.rsa, id: "short", rsaBits: 1024)
        let set = try JSONWebKeySet(json: TestJWT.keySet([
            Self.rsa.jwk(), ["kty": "oct", "kid": "shared", "k": "c2VjcmV0"], Self.ec.jwk(alg: "RS256"), offCurve, weak.jwk(),
            Self.ec.jwk().merging(["use": "enc"]) { _, b in b },
        ]))
        #expect(set.count == 1)
        #expect(set.ignored.count == 5, "\(set.ignored)")
    }

    #if BOUTIQUE_SYNC_HTTP
    /// A key the provider rotates in is read from its URL when a token first names it, and no more
    /// than once per interval however many unknown ids arrive.
    @Test func aRemoteKeySetIsReadAgainForAnUnknownKey() async throws {
        let server = try CannedHTTPServer(answers: ["/jwks.json": TestJWT.keySet([Self.rsa.jwk()])])
        defer { server.stop() }
        let url = server.url.appendingPathComponent("jwks.json")
        let verifier = try await JWTVerifier.fetchingKeys(
            from: url, secret: nil, rules: JWTClaimRules(),
            timing: RemoteKeySet.Timing(refreshInterval: .seconds(3_600), minimumInterval: .zero))
        defer { Task { await verifier.stop() } }
        let rotated = TestSigningKey(.p256, id: "rotated")
        #expect(await Self.refusal(rotated.token(TestJWT.claims()), by: verifier)?.hasPrefix("unknown key") == true)
        server.answer("/jwks.json", with: TestJWT.keySet([Self.rsa.jwk(), rotated.jwk()]))
        #expect(await Self.refusal(rotated.token(TestJWT.claims()), by: verifier) == nil)

        let limited = try await JWTVerifier.fetchingKeys(
            from: url, secret: nil, rules: JWTClaimRules(),
            // An hour between reads: the twenty tokens below took over a minute in a sanitized run.
            timing: RemoteKeySet.Timing(refreshInterval: .seconds(3_600), minimumInterval: .seconds(3_600)))
        defer { Task { await limited.stop() } }
        let before = server.requests.withLock { $0.count }
        for index in 0..<20 {
            let made = TestSigningKey(.p256, id: "made-up-\(index)")
            #expect(await Self.refusal(made.token(TestJWT.claims()), by: limited)?.hasPrefix("unknown key") == true)
        }
        #expect(server.requests.withLock { $0.count } == before, "read at most once an interval")
    }

    /// Keys rotated in are taken on the schedule too, with no token asking for them.
    @Test func aRemoteKeySetIsReadAgainOnItsSchedule() async throws {
        let server = try CannedHTTPServer(answers: ["/jwks.json": TestJWT.keySet([Self.rsa.jwk()])])
        defer { server.stop() }
        let verifier = try await JWTVerifier.fetchingKeys(
            from: server.url.appendingPathComponent("jwks.json"), secret: nil, rules: JWTClaimRules(),
            timing: RemoteKeySet.Timing(refreshInterval: .milliseconds(20), minimumInterval: .seconds(3_600)))
        let rotated = TestSigningKey(.rsa, id: "scheduled")
        server.answer("/jwks.json", with: TestJWT.keySet([rotated.jwk()]))
        try await waitUntil("the scheduled read takes the rotated key") {
            await Self.refusal(rotated.token(TestJWT.claims()), by: verifier) == nil
        }
        #expect(await Self.refusal(Self.rsa.token(TestJWT.claims()), by: verifier)?.hasPrefix("unknown key") == true, "the retired key is gone")
        await verifier.stop()
    }

    @Test func aRemoteKeySetTooLargeIsRefused() async throws {
        let server = try CannedHTTPServer(answers: ["/jwks.json": Array(repeating: UInt8(ascii: " "), count: JSONWebKeySet.maximumBytes + 1)])
        defer { server.stop() }
        await #expect(throws: BoutiqueError.self) {
            _ = try await JWTVerifier.fetchingKeys(from: server.url.appendingPathComponent("jwks.json"))
        }
    }
    #endif
}
#endif
