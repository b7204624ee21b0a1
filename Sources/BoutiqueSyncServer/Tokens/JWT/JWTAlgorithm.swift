/// The signature algorithms a JSON Web Token may name (its header's `alg`) for this server to accept
/// it, each with its own kind of key only: RS256 with an RSA key of a JWK Set, ES256 with a P-256 key
/// of one, HS256 with the server's shared secret. Every other value, `none` first, is refused.
enum JWTAlgorithm: String, Sendable {
    /// RSA PKCS #1 v1.5 with SHA-256.
    case rs256 = "RS256"
    /// ECDSA on P-256 with SHA-256; the signature is r and s, 32 bytes each.
    case es256 = "ES256"
    /// HMAC-SHA256 under a secret the server shares with the token's issuer.
    case hs256 = "HS256"
}
