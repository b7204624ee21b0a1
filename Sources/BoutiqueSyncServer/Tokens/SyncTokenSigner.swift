import Foundation

/// Issues and checks sync bearer tokens: HMAC-SHA256 (CryptoKit on Apple platforms, OpenSSL's libcrypto
/// elsewhere) over the claims, under a secret only the server holds.
///
/// ```swift
/// let signer = try SyncTokenSigner(secretFile: URL(fileURLWithPath: "/etc/boutique/secret"))
/// let token = try signer.token(tenant: "acme", user: "ana", expiresAt: Date().addingTimeInterval(30 * 86_400))
/// let claims = try signer.verify(token)   // throws for a forged, altered or expired token
/// ```
///
/// The tenant a request works on comes from its verified token, never from its body, so one
/// customer's devices cannot reach another's rows. Rotating the secret invalidates every token.
public struct SyncTokenSigner: Sendable {
    private let secret: [UInt8]

    /// The fewest secret bytes accepted: a shorter key would make tokens guessable.
    public static let minimumSecretLength = 32

    /// A signer with `secret`.
    ///
    /// The secret must not be guessable: at least ``minimumSecretLength`` bytes, at least 3 bits of
    /// entropy per byte by how often each byte value occurs in it, and not a shorter block repeated.
    /// `openssl rand -base64 32` makes one that always passes.
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/invalidArgument(_:)`` when the secret is shorter than
    ///   ``minimumSecretLength`` bytes or too predictable.
    public init(secret: [UInt8]) throws {
        if let weakness = SecretStrength.weakness(of: secret) {
            throw BoutiqueError.invalidArgument("\(weakness); make one with `(umask 077; openssl rand -base64 32 > secret)`")
        }
        self.secret = secret
    }

    /// A signer whose secret is the contents of `secretFile`, without surrounding whitespace.
    ///
    /// Like ssh with a private key, it refuses a file its group or others may read or write: make it
    /// the owner's alone (`chmod 600 FILE`).
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/invalidArgument(_:)`` when the file cannot be read, others
    ///   may read or write it, or its secret is too short or too predictable (see ``init(secret:)``).
    public init(secretFile: URL) throws {
        try self.init(secret: try SecretFile.read(secretFile, what: "token secret"))
    }

    /// A token for `user` of `tenant` that works until `expiresAt`.
    ///
    /// Tenant and user names are 1 to 256 bytes of UTF-8 in Unicode Normalization Form C, without
    /// control characters (newlines included): the server compares names as bytes, so a name has one
    /// spelling only (see ``verify(_:at:)``).
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/invalidArgument(_:)`` when the tenant or user is empty,
    ///   longer than 256 bytes, holds control characters or is not in NFC.
    public func token(tenant: String, user: String, expiresAt: Date) throws -> String {
        for (label, value) in [("tenant", tenant), ("user", user)] {
            if let problem = SyncName.problem(in: value, label: label) {
                throw BoutiqueError.invalidArgument("cannot issue the token: \(problem)")
            }
        }
        let claims = SyncToken(tenant: tenant, user: user, expiresAt: Int64(expiresAt.timeIntervalSince1970.rounded(.down)))
        let payload = Base64.encodeURLSafe(Array(try SyncJSON.encoder().encode(claims)))
        let signed = SyncToken.prefix + "." + payload
        return signed + "." + Base64.encodeURLSafe(try signature(of: signed))
    }

    /// The claims of `token`, after checking its signature, its names and its expiry at `date`.
    ///
    /// A token signed with this server's secret whose tenant or user is not a name
    /// ``token(tenant:user:expiresAt:)`` issues (empty, longer than 256 bytes, with a control character,
    /// or not in Unicode NFC — a token made by other code, or by an older version) is refused: the
    /// server compares names as bytes, and a second spelling of a name would be a second user to some
    /// of its checks and the same user to others.
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/syncRefused(reason:)`` saying whether the token is malformed, not
    ///   signed with this server's secret, names a tenant or user no token may name, or expired.
    public func verify(_ token: String, at date: Date = Date()) throws -> SyncToken {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == Substring(SyncToken.prefix), token.utf8.count <= 4096,
            let given = Self.canonicalBase64URL(parts[2]), given.count == HMACSHA256.byteCount
        else { throw BoutiqueError.syncRefused(reason: "the bearer token is not a BoutiqueDB sync token") }
        let signed = Array((String(parts[0]) + "." + String(parts[1])).utf8)
        guard try HMACSHA256.isValid(given, key: secret, message: signed) else {
            throw BoutiqueError.syncRefused(reason: "the bearer token's signature is not this server's")
        }
        guard let json = Self.canonicalBase64URL(parts[1]),
            let claims = try? SyncJSON.decoder().decode(SyncToken.self, from: Data(json))
        else { throw BoutiqueError.syncRefused(reason: "the bearer token's claims are unreadable") }
        for (label, value) in [("tenant", claims.tenant), ("user", claims.user)] {
            if let problem = SyncName.problem(in: value, label: label) {
                throw BoutiqueError.syncRefused(reason: "the bearer token is refused: \(problem)")
            }
        }
        guard Double(claims.expiresAt) > date.timeIntervalSince1970 else {
            let expiry = Date(timeIntervalSince1970: Double(claims.expiresAt))
            throw BoutiqueError.syncRefused(reason: "the bearer token expired at \(expiry.ISO8601Format())")
        }
        return claims
    }

    /// The bytes `text` encodes when it is exactly what ``token(tenant:user:expiresAt:)`` writes for
    /// them — base64url without padding, no unused bits set, nothing else — and `nil` otherwise. Each
    /// token then has one spelling only: a variant of a genuine one (a padding tail, a flipped unused
    /// bit, bytes after it) is refused rather than accepted as the same token, so a token can be
    /// compared, logged or revoked by its text.
    private static func canonicalBase64URL(_ text: Substring) -> [UInt8]? {
        let text = String(text)
        guard let bytes = Base64.decodeURLSafe(text), Base64.encodeURLSafe(bytes) == text else { return nil }
        return bytes
    }

    private func signature(of text: String) throws -> [UInt8] {
        try HMACSHA256.authenticationCode(key: secret, message: Array(text.utf8))
    }
}
