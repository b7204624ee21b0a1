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
    public static let minimumSecretLength = 16

    /// A signer with `secret`.
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/invalidArgument(_:)`` when the secret is shorter than
    ///   ``minimumSecretLength`` bytes.
    public init(secret: [UInt8]) throws {
        guard secret.count >= Self.minimumSecretLength else {
            throw BoutiqueError.invalidArgument(
                "the token secret has \(secret.count) bytes; it needs at least \(Self.minimumSecretLength) (e.g. `openssl rand -base64 32 > secret`)")
        }
        self.secret = secret
    }

    /// A signer whose secret is the contents of `secretFile`, without surrounding whitespace.
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/invalidArgument(_:)`` when the file cannot be read or its secret is
    ///   too short.
    public init(secretFile: URL) throws {
        guard let data = FileManager.default.contents(atPath: secretFile.path) else {
            throw BoutiqueError.invalidArgument("cannot read the token secret file \(secretFile.path)")
        }
        var bytes = [UInt8](data)
        while let last = bytes.last, Self.isWhitespace(last) { bytes.removeLast() }
        while let first = bytes.first, Self.isWhitespace(first) { bytes.removeFirst() }
        try self.init(secret: bytes)
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\t")
    }

    /// A token for `user` of `tenant` that works until `expiresAt`.
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/invalidArgument(_:)`` when the tenant or user is empty,
    ///   longer than 256 bytes, or holds control characters.
    public func token(tenant: String, user: String, expiresAt: Date) throws -> String {
        for (label, value) in [("tenant", tenant), ("user", user)] {
            guard !value.isEmpty, value.utf8.count <= 256, !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw BoutiqueError.invalidArgument("a token's \(label) must be 1 to 256 bytes without control characters")
            }
        }
        let claims = SyncToken(tenant: tenant, user: user, expiresAt: Int64(expiresAt.timeIntervalSince1970.rounded(.down)))
        let payload = Base64.encodeURLSafe(Array(try SyncJSON.encoder().encode(claims)))
        let signed = SyncToken.prefix + "." + payload
        return signed + "." + Base64.encodeURLSafe(try signature(of: signed))
    }

    /// The claims of `token`, after checking its signature and expiry at `date`.
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/syncRefused(reason:)`` saying whether the token is malformed, not
    ///   signed with this server's secret, or expired.
    public func verify(_ token: String, at date: Date = Date()) throws -> SyncToken {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == Substring(SyncToken.prefix), token.utf8.count <= 4096,
            let given = Base64.decodeURLSafe(String(parts[2])), given.count == 32
        else { throw BoutiqueError.syncRefused(reason: "the bearer token is not a BoutiqueDB sync token") }
        let signed = Array((String(parts[0]) + "." + String(parts[1])).utf8)
        guard try HMACSHA256.isValid(given, key: secret, message: signed) else {
            throw BoutiqueError.syncRefused(reason: "the bearer token's signature is not this server's")
        }
        guard let json = Base64.decodeURLSafe(String(parts[1])),
            let claims = try? SyncJSON.decoder().decode(SyncToken.self, from: Data(json))
        else { throw BoutiqueError.syncRefused(reason: "the bearer token's claims are unreadable") }
        guard Double(claims.expiresAt) > date.timeIntervalSince1970 else {
            let expiry = Date(timeIntervalSince1970: Double(claims.expiresAt))
            throw BoutiqueError.syncRefused(reason: "the bearer token expired at \(expiry.ISO8601Format())")
        }
        return claims
    }

    private func signature(of text: String) throws -> [UInt8] {
        try HMACSHA256.authenticationCode(key: secret, message: Array(text.utf8))
    }
}
