import Foundation

/// Checks JSON Web Tokens from an identity provider (Auth0, Supabase, Keycloak, Cognito, …) and says
/// whose they are: RS256 and ES256 signatures with the keys of a JWK Set, HS256 with a shared secret.
///
/// ```swift
/// let keys = try JSONWebKeySet(json: Array(try Data(contentsOf: URL(fileURLWithPath: "jwks.json"))))
/// let verifier = try JWTVerifier(keys: keys, rules: JWTClaimRules(audience: "https://sync.example.com"))
/// let claims = try await verifier.verify(token)   // claims.user is `sub`, claims.tenant the tenant claim
/// ```
///
/// Each algorithm is accepted only with its own kind of key: `alg: none`, any algorithm but RS256,
/// ES256 and HS256, an HS256 token when no secret was given (so a public RSA key can never serve as an
/// HMAC secret), and a token naming an RSA key's `kid` with ES256 (or the reverse) are refused. The
/// signature is checked before any claim is read. A refusal is a
/// ``/BoutiqueDB/BoutiqueError/syncRefused(reason:)`` whose reason starts with the check that failed —
/// `malformed`, `unsupported algorithm`, `unknown key`, `bad signature`, `expired`, `not yet valid`,
/// `wrong audience` or `wrong issuer` — and never repeats the token.
///
/// A verifier made with ``fetchingKeys(from:secret:rules:)`` reads its JWK Set from a URL, again
/// every 10 minutes and when a token names a `kid` it does not know (at most once a minute), so that
/// keys the provider rotates in are taken without a restart.
public final class JWTVerifier: Sendable {
    /// The longest token read: identity providers' tokens are one or two kilobytes.
    public static let maximumTokenBytes = 8 * 1024

    private let rules: JWTClaimRules
    private let secret: [UInt8]?
    private let keys: CurrentKeys
    private let remote: RemoteKeySet?

    /// A verifier of tokens signed with `keys` (RS256, ES256) or with `secret` (HS256), under `rules`.
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/invalidArgument(_:)`` when neither keys nor a secret are
    ///   given, the secret is guessable (the rule of ``SyncTokenSigner/init(secret:)``), or the rules'
    ///   tenant is not a name a tenant may have.
    public convenience init(keys: JSONWebKeySet? = nil, secret: [UInt8]? = nil, rules: JWTClaimRules = JWTClaimRules()) throws {
        try self.init(keys: keys, secret: secret, rules: rules, remote: nil)
    }

    private init(keys: JSONWebKeySet?, secret: [UInt8]?, rules: JWTClaimRules, remote: RemoteKeySet?) throws {
        guard keys != nil || secret != nil else {
            throw BoutiqueError.invalidArgument("a JWT verifier needs a JWK Set or an HS256 secret")
        }
        if let secret, let weakness = SecretStrength.weakness(of: secret) {
            throw BoutiqueError.invalidArgument("the HS256 secret is refused: \(weakness)")
        }
        if let tenant = rules.tenant, let problem = SyncName.problem(in: tenant, label: "tenant") {
            throw BoutiqueError.invalidArgument(problem)
        }
        guard rules.tenant != nil || !rules.tenantClaim.isEmpty else {
            throw BoutiqueError.invalidArgument("the tenant claim's name is empty")
        }
        self.rules = rules
        self.secret = secret
        self.keys = CurrentKeys(keys)
        self.remote = remote
    }

    /// A verifier whose RS256 and ES256 keys are the JWK Set at `url` (http or https), read now, again
    /// every 10 minutes, and when a token names an unknown `kid` (at most once a minute). A later read
    /// that fails keeps the keys of the last one that worked.
    ///
    /// ```swift
    /// let verifier = try await JWTVerifier.fetchingKeys(
    ///     from: URL(string: "https://example.eu.auth0.com/.well-known/jwks.json")!,
    ///     rules: JWTClaimRules(tenantClaim: "https://example.com/tenant"))
    /// ```
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/invalidArgument(_:)`` when the first read fails or its
    ///   document is not a usable JWK Set (see ``JSONWebKeySet/init(json:)``), or as
    ///   ``init(keys:secret:rules:)`` does.
    public static func fetchingKeys(from url: URL, secret: [UInt8]? = nil, rules: JWTClaimRules = JWTClaimRules()) async throws
        -> JWTVerifier
    {
        try await fetchingKeys(from: url, secret: secret, rules: rules, timing: RemoteKeySet.Timing())
    }

    /// ``fetchingKeys(from:secret:rules:)`` with other intervals between reads (for tests).
    static func fetchingKeys(from url: URL, secret: [UInt8]?, rules: JWTClaimRules, timing: RemoteKeySet.Timing) async throws
        -> JWTVerifier
    {
        let remote = try RemoteKeySet(url: url, timing: timing)
        let first = try await remote.read()
        let verifier = try JWTVerifier(keys: first, secret: secret, rules: rules, remote: remote)
        let keys = verifier.keys
        await remote.startRefreshing { fresh in keys.replace(with: fresh) }
        return verifier
    }

    /// Stops reading the JWK Set again (a verifier made with ``fetchingKeys(from:secret:rules:)``).
    public func stop() async { await remote?.stop() }

    /// The keys that come out of a JWK Set it could not use, and other notes for the operator.
    public var ignoredKeys: [String] { keys.current?.ignored ?? [] }

    /// The tenant and user `token` is for, after checking its signature, then its time, audience and
    /// issuer at `date`.
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/syncRefused(reason:)`` naming the check that failed.
    public func verify(_ token: String, at date: Date = Date()) async throws -> SyncToken {
        do {
            return try await claims(of: token, at: date)
        } catch let refusal as JWTRefusal {
            throw refusal.error
        }
    }

    private func claims(of token: String, at date: Date) async throws -> SyncToken {
        guard token.utf8.count <= Self.maximumTokenBytes else {
            throw JWTRefusal(.malformed, "the token is longer than \(Self.maximumTokenBytes) bytes")
        }
        let parts = token.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        // The signature may be empty here (`alg: none` has none): the algorithm is refused first, by name.
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty, parts.allSatisfy({ !$0.contains(UInt8(ascii: "=")) }),
            let headerBytes = Base64.decodeURLSafe(String(decoding: parts[0], as: UTF8.self)),
            let header = JSONValue.object(headerBytes),
            let payloadBytes = Base64.decodeURLSafe(String(decoding: parts[1], as: UTF8.self)),
            let signature = Base64.decodeURLSafe(String(decoding: parts[2], as: UTF8.self))
        else { throw JWTRefusal(.malformed, "the token is not three base64url parts, a JSON header, claims and a signature") }
        guard let name = header["alg"]?.string else { throw JWTRefusal(.malformed, "the token's header names no algorithm (alg)") }
        guard let algorithm = JWTAlgorithm(rawValue: name) else {
            // A name of the registry's form is said, so that the operator sees what the provider signs
            // with; anything else is the caller's text, not repeated.
            let shown = name.count <= 16 && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } ? "'\(name)' " : ""
            throw JWTRefusal(.unsupportedAlgorithm, "the algorithm \(shown)is not RS256, ES256 or HS256")
        }
        if header["crit"] != nil {
            throw JWTRefusal(.malformed, "the token's header has critical extensions (crit), which this server does not know")
        }
        let signingInput = Array(token.utf8.prefix(parts[0].count + 1 + parts[1].count))
        try await checkSignature(signature, of: signingInput, algorithm: algorithm, keyID: header["kid"])
        guard let claims = JSONValue.object(payloadBytes) else { throw JWTRefusal(.malformed, "the token's claims are not a JSON object") }
        return try check(claims, at: date)
    }

    private func checkSignature(_ signature: [UInt8], of message: [UInt8], algorithm: JWTAlgorithm, keyID: JSONValue?) async throws {
        if algorithm == .hs256 {
            guard let secret else {
                throw JWTRefusal(.unsupportedAlgorithm, "HS256 tokens are not accepted: the server has no HS256 secret (--jwt-secret-file)")
            }
            guard try HMACSHA256.isValid(signature, key: secret, message: message) else {
                throw JWTRefusal(.badSignature, "the HS256 signature is not the server's secret's")
            }
            return
        }
        if keyID != nil, keyID?.string == nil { throw JWTRefusal(.malformed, "the token's key id (kid) is not a string") }
        let id = keyID?.string
        guard keys.current != nil else {
            throw JWTRefusal(.unsupportedAlgorithm, "\(algorithm.rawValue) tokens are not accepted: the server has no JWK Set (--jwks, --jwks-url)")
        }
        var lookup = keys.current?.key(id: id, algorithm: algorithm) ?? .missing
        if case .missing = lookup, let remote, let fresh = await remote.readAfterUnknownKey() {
            keys.replace(with: fresh)
            lookup = fresh.key(id: id, algorithm: algorithm)
        }
        switch lookup {
        case .found(let key):
            guard key.isValidSignature(signature, of: message) else {
                throw JWTRefusal(.badSignature, "the \(algorithm.rawValue) signature is not its key's")
            }
        case .wrongKind:
            throw JWTRefusal(.unsupportedAlgorithm, "the token's key is not a key for \(algorithm.rawValue)")
        case .missing:
            throw JWTRefusal(
                .unknownKey,
                id == nil
                    ? "the token names no key (kid) and the JWK Set has not exactly one \(algorithm.rawValue) key"
                    : "the token's key (kid) is not in the JWK Set")
        }
    }

    /// The token's tenant and user once its claims pass the rules at `date`.
    private func check(_ claims: [String: JSONValue], at date: Date) throws -> SyncToken {
        let now = date.timeIntervalSince1970
        let leeway = Double(rules.leewaySeconds)
        guard let expiry = claims["exp"] else { throw JWTRefusal(.malformed, "the token has no expiry (exp)") }
        guard let exp = expiry.number, exp.isFinite else { throw JWTRefusal(.malformed, "the token's exp is not a number") }
        guard now <= exp + leeway else {
            throw JWTRefusal(.expired, "the token expired at \(Self.time(exp)) (\(rules.leewaySeconds) s leeway)")
        }
        if let notBefore = claims["nbf"] {
            guard let nbf = notBefore.number, nbf.isFinite else { throw JWTRefusal(.malformed, "the token's nbf is not a number") }
            guard now + leeway >= nbf else {
                throw JWTRefusal(.notYetValid, "the token is valid from \(Self.time(nbf)) (\(rules.leewaySeconds) s leeway)")
            }
        }
        if let audience = rules.audience {
            let named: [String]
            switch claims["aud"] {
            case .string(let one)?: named = [one]
            case .array(let many)?: named = many.compactMap(\.string)
            default: named = []
            }
            guard named.contains(where: { SyncName.same($0, audience) }) else {
                throw JWTRefusal(.wrongAudience, "the token's audience (aud) does not name this server's")
            }
        }
        if let issuer = rules.issuer {
            guard let given = claims["iss"]?.string, SyncName.same(given, issuer) else {
                throw JWTRefusal(.wrongIssuer, "the token's issuer (iss) is not the one this server accepts")
            }
        }
        guard let user = claims["sub"]?.string else { throw JWTRefusal(.malformed, "the token has no subject (sub) string") }
        let tenant: String
        if let fixed = rules.tenant {
            tenant = fixed
        } else {
            guard let named = claims[rules.tenantClaim]?.string else {
                throw JWTRefusal(.malformed, "the token has no '\(rules.tenantClaim)' claim naming its tenant")
            }
            tenant = named
        }
        for (label, value) in [("tenant", tenant), ("user", user)] {
            // The rule's sentence may quote a name not in NFC; the claim is the provider's, not a secret.
            if let problem = SyncName.problem(in: value, label: label) { throw JWTRefusal(.malformed, problem) }
        }
        // A signed `exp` far past what an Int64 holds is the provider's odd claim, not a reason to trap.
        guard let expiresAt = Int64(exactly: exp.rounded(.down)) else {
            throw JWTRefusal(.malformed, "the token's 'exp' claim is out of range")
        }
        return SyncToken(tenant: tenant, user: user, expiresAt: expiresAt)
    }

    private static func time(_ seconds: Double) -> String {
        guard seconds > -1e12, seconds < 1e12 else { return "\(seconds)" }
        return Date(timeIntervalSince1970: seconds.rounded(.down)).ISO8601Format()
    }
}
