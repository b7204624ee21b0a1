#if canImport(CCrypto)
import CCrypto
#endif

/// A public key of a JWK Set, built once by OpenSSL's libcrypto from its JWK numbers and used to
/// check RS256 or ES256 signatures. Never a shared secret: an HS256 token is never checked with it.
///
/// ```swift
/// let key = try JWTPublicKey(rsaModulus: n, exponent: e)
/// let genuine = key.isValidSignature(signature, of: Array(signingInput.utf8))
/// ```
///
/// `@unchecked Sendable`: the `EVP_PKEY` is made in the initializer and never changed after; OpenSSL 3
/// lets several threads use one key at once for verification, each with its own `EVP_MD_CTX` (made per
/// call here), and the key is freed only in `deinit`, when no one holds it any more.
final class JWTPublicKey: @unchecked Sendable {
    /// The algorithm this key checks, and no other.
    let algorithm: JWTAlgorithm

    /// The fewest bits of an RSA modulus accepted: shorter keys can be factored.
    static let minimumRSABits = 2048
    /// The most bits of an RSA modulus accepted: a larger key only makes each check slower.
    static let maximumRSABits = 8192

    #if canImport(CCrypto)
    private let key: OpaquePointer

    /// An RS256 key from its modulus and public exponent (big-endian bytes, JWK `n` and `e`).
    ///
    /// - Throws: a sentence saying why when OpenSSL refuses the numbers or the modulus is shorter than
    ///   ``minimumRSABits`` or longer than ``maximumRSABits``.
    init(rsaModulus modulus: [UInt8], exponent: [UInt8]) throws(KeyProblem) {
        guard !exponent.isEmpty, exponent.count <= 8 else { throw KeyProblem("its exponent is not a small number") }
        let significant = modulus.drop { $0 == 0 }
        guard significant.count * 8 <= Self.maximumRSABits else { throw KeyProblem("its modulus is longer than \(Self.maximumRSABits) bits") }
        guard let made = boutique_rsa_public_key(modulus, modulus.count, exponent, exponent.count) else {
            throw KeyProblem("OpenSSL does not take its modulus and exponent")
        }
        guard boutique_key_bits(made) >= Int32(Self.minimumRSABits) else {
            boutique_free_key(made)
            throw KeyProblem("its modulus is shorter than \(Self.minimumRSABits) bits")
        }
        key = made
        algorithm = .rs256
    }

    /// An ES256 key from its point (32 big-endian bytes each, JWK `x` and `y`).
    ///
    /// - Throws: a sentence saying why when a coordinate is not 32 bytes or the point is not on P-256.
    init(p256X x: [UInt8], y: [UInt8]) throws(KeyProblem) {
        guard x.count == 32, y.count == 32 else { throw KeyProblem("its x and y are not 32 bytes each") }
        guard let made = boutique_p256_public_key(x, y) else { throw KeyProblem("its point is not on the P-256 curve") }
        key = made
        algorithm = .es256
    }

    deinit { boutique_free_key(key) }

    /// Whether `signature` is this key's over `message`: PKCS #1 v1.5 for RSA; JWS's r‖s for P-256,
    /// turned into the DER form OpenSSL reads.
    func isValidSignature(_ signature: [UInt8], of message: [UInt8]) -> Bool {
        switch algorithm {
        case .rs256:
            return boutique_verify_sha256(key, message, message.count, signature, signature.count) == 1
        case .es256:
            guard signature.count == 64 else { return false }
            var der = [UInt8](repeating: 0, count: 80)
            let length = boutique_ecdsa_raw_to_der(signature, &der)
            guard length > 0 else { return false }
            return boutique_verify_sha256(key, message, message.count, der, length) == 1
        case .hs256:
            return false
        }
    }
    #else
    // Without OpenSSL (Apple platforms, where the server's HMAC is CryptoKit's) there is no RSA here:
    // a JWK Set cannot be read, and tokens are checked with the shared secret only.
    init(rsaModulus modulus: [UInt8], exponent: [UInt8]) throws(KeyProblem) {
        throw KeyProblem("RS256 keys need OpenSSL's libcrypto, which this build does not link")
    }

    init(p256X x: [UInt8], y: [UInt8]) throws(KeyProblem) {
        throw KeyProblem("ES256 keys need OpenSSL's libcrypto, which this build does not link")
    }

    func isValidSignature(_ signature: [UInt8], of message: [UInt8]) -> Bool { false }
    #endif

    /// Why a JWK cannot be a key.
    struct KeyProblem: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }
}
