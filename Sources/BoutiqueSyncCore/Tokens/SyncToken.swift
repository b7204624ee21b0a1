import Foundation

/// What a sync bearer token says: whose data it opens (the tenant), who holds it (the user), and
/// until when.
///
/// ```swift
/// let token = try signer.token(tenant: "acme", user: "ana", expiresAt: Date().addingTimeInterval(86_400))
/// let claims = try signer.verify(token)        // on the server: the signature and the expiry checked
/// print(claims.tenant, claims.user)
/// ```
///
/// A token is `bq1.<claims>.<signature>`: the claims as JSON in base64url, and their HMAC-SHA256 under
/// the server's secret. Devices read the claims without checking them (they name the tenant a
/// device's progress is kept under); only the server, which holds the secret, can tell a real token.
public struct SyncToken: Hashable, Sendable, Codable {
    /// The tenant whose data the token opens.
    public var tenant: String
    /// The user the token was issued to, as the server's authorization hook sees them.
    public var user: String
    /// When the token stops working, in whole seconds since 1970.
    public var expiresAt: Int64

    /// Claims for `user` of `tenant` until `expiresAt` (seconds since 1970).
    public init(tenant: String, user: String, expiresAt: Int64) {
        self.tenant = tenant
        self.user = user
        self.expiresAt = expiresAt
    }

    /// The prefix every token of this format starts with.
    public static let prefix = "bq1"

    /// The claims of `token` as it says them, unverified: `nil` when it is not a token of this
    /// format. A device uses them to keep its progress per tenant; the server verifies them instead.
    public static func unverifiedClaims(of token: String) -> SyncToken? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == Substring(prefix), let json = Base64.decodeURLSafe(String(parts[1])) else {
            return nil
        }
        return try? SyncJSON.decoder().decode(SyncToken.self, from: Data(json))
    }
}

extension Base64 {
    /// base64url without padding (RFC 4648 §5), as tokens carry it.
    package static func encodeURLSafe(_ bytes: [UInt8]) -> String {
        var text = encode(bytes)
        while text.last == "=" { text.removeLast() }
        return String(text.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
    }

    /// Decodes base64url, padded or not; `nil` when `text` is not base64url.
    package static func decodeURLSafe(_ text: String) -> [UInt8]? {
        guard text.utf8.allSatisfy({ $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "/") }) else { return nil }
        return decode(String(text.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 }))
    }
}
