// Keys and tokens are made with OpenSSL's libcrypto, which the tests link where the server does.
#if canImport(CCrypto)
import BoutiqueSyncCore
import CCrypto
import Foundation

/// A signing key of an identity provider, made at test time with libcrypto: an RSA key of 2048 bits
/// or a P-256 key, its JWK, and JSON Web Tokens it signs.
///
/// `@unchecked Sendable`: the key is made in `init`, never changed, and freed in `deinit`; signing
/// uses a new context each time.
final class TestSigningKey: @unchecked Sendable {
    enum Kind { case rsa, p256 }

    let kind: Kind
    let id: String
    private let key: OpaquePointer

    init(_ kind: Kind, id: String, rsaBits: UInt32 = 2048) {
        self.kind = kind
        self.id = id
        key = boutique_generate_key(kind == .rsa ? rsaBits : 0)!
    }

    deinit { boutique_free_key(key) }

    /// The algorithm its tokens name.
    var algorithm: String { kind == .rsa ? "RS256" : "ES256" }

    /// Its public JWK, with `kid` and, unless `alg` is `nil`, the algorithm.
    func jwk(alg: String?? = .none) -> [String: String] {
        var jwk: [String: String] = ["kid": id, "use": "sig"]
        switch kind {
        case .rsa:
            jwk["kty"] = "RSA"
            jwk["n"] = Base64.encodeURLSafe(number("n"))
            jwk["e"] = Base64.encodeURLSafe(number("e"))
        case .p256:
            var point = [UInt8](repeating: 0, count: 65)
            _ = boutique_p256_point(key, &point)
            jwk["kty"] = "EC"
            jwk["crv"] = "P-256"
            jwk["x"] = Base64.encodeURLSafe(Array(point[1..<33]))
            jwk["y"] = Base64.encodeURLSafe(Array(point[33..<65]))
        }
        switch alg {
        case .none: jwk["alg"] = algorithm
        case .some(.none): break
        case .some(.some(let other)): jwk["alg"] = other
        }
        return jwk
    }

    /// The DER bytes of its public key as `openssl` would print them is not needed: the RSA public
    /// key an attacker would try as an HMAC secret is its modulus, as a JWK publishes it.
    var publicModulus: [UInt8] { number("n") }

    private func number(_ name: String) -> [UInt8] {
        let size = boutique_key_number(key, name, nil, 0)
        var out = [UInt8](repeating: 0, count: size)
        _ = boutique_key_number(key, name, &out, size)
        return out
    }

    /// Its signature over `message`, as JWS writes it (r‖s for P-256).
    func sign(_ message: [UInt8]) -> [UInt8] {
        var signature = [UInt8](repeating: 0, count: 1024)
        let length = boutique_sign_sha256(key, message, message.count, &signature, signature.count)
        let der = Array(signature.prefix(length))
        guard kind == .p256 else { return der }
        var raw = [UInt8](repeating: 0, count: 64)
        _ = boutique_ecdsa_der_to_raw(der, der.count, &raw)
        return raw
    }

    /// A token with `claims`, signed by this key, its header naming `kid` (the key's unless given) and
    /// `alg` (the key's unless given).
    func token(_ claims: [String: Any], kid: String?? = .none, alg: String? = nil) -> String {
        var header: [String: Any] = ["alg": alg ?? algorithm, "typ": "JWT"]
        switch kid {
        case .none: header["kid"] = id
        case .some(.none): break
        case .some(.some(let other)): header["kid"] = other
        }
        return TestJWT.signed(header: header, claims: claims, by: sign)
    }
}

/// JSON Web Tokens and JWK Sets written by hand, as a provider (or an attacker) writes them.
enum TestJWT {
    static func part(_ object: [String: Any]) -> String {
        Base64.encodeURLSafe(Array(try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])))
    }

    /// `header.claims.signature`, the signature made by `sign` over the first two parts.
    static func signed(header: [String: Any], claims: [String: Any], by sign: ([UInt8]) -> [UInt8]) -> String {
        let input = part(header) + "." + part(claims)
        return input + "." + Base64.encodeURLSafe(sign(Array(input.utf8)))
    }

    /// An HS256 token under `secret`.
    static func hs256(_ claims: [String: Any], secret: [UInt8]) -> String {
        signed(header: ["alg": "HS256", "typ": "JWT"], claims: claims) { message in
            var out = [UInt8](repeating: 0, count: 32)
            _ = boutique_hmac_sha256(secret, secret.count, message, message.count, &out)
            return out
        }
    }

    /// The JWK Set document holding `jwks`.
    static func keySet(_ jwks: [[String: String]]) -> [UInt8] {
        Array(try! JSONSerialization.data(withJSONObject: ["keys": jwks], options: [.sortedKeys]))
    }

    /// Claims for `user` of `tenant`, expiring in an hour unless `exp` says otherwise.
    static func claims(user: String = "ana", tenant: String = "acme", exp: Date = Date().addingTimeInterval(3_600), _ more: [String: Any] = [:])
        -> [String: Any]
    {
        var claims: [String: Any] = ["sub": user, "tenant": tenant, "exp": Int(exp.timeIntervalSince1970)]
        for (key, value) in more { claims[key] = value }
        return claims
    }
}
#endif
