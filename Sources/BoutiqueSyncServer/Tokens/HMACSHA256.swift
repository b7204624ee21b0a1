#if canImport(CryptoKit)
import CryptoKit
#else
import CCrypto
#endif

/// HMAC-SHA256 and a constant-time comparison, the two primitives sync tokens need: CryptoKit on Apple
/// platforms, which ship no OpenSSL; OpenSSL's libcrypto elsewhere. Never written by hand.
///
/// ```swift
/// let code = try HMACSHA256.authenticationCode(key: secret, message: Array("bq1.claims".utf8))
/// let genuine = try HMACSHA256.isValid(given, key: secret, message: Array("bq1.claims".utf8))
/// ```
package enum HMACSHA256 {
    /// The length of a code, in bytes.
    package static let byteCount = 32

    /// The HMAC-SHA256 of `message` under `key`.
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/syncUnavailable(reason:)`` when the library fails (libcrypto
    ///   reports failures; CryptoKit's HMAC has none).
    package static func authenticationCode(key: [UInt8], message: [UInt8]) throws -> [UInt8] {
        #if canImport(CryptoKit)
        return Array(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key)))
        #else
        var out = [UInt8](repeating: 0, count: byteCount)
        let ok = key.withUnsafeBytes { key in
            message.withUnsafeBytes { message in
                boutique_hmac_sha256(key.baseAddress, key.count, message.baseAddress, message.count, &out)
            }
        }
        guard ok == 1 else { throw BoutiqueError.syncUnavailable(reason: "OpenSSL could not compute an HMAC") }
        return out
        #endif
    }

    /// Whether `code` is the HMAC-SHA256 of `message` under `key`, compared in time independent of
    /// where they differ (so that a forger cannot learn a signature byte by byte from how long a
    /// refusal takes).
    package static func isValid(_ code: [UInt8], key: [UInt8], message: [UInt8]) throws -> Bool {
        #if canImport(CryptoKit)
        return HMAC<SHA256>.isValidAuthenticationCode(code, authenticating: message, using: SymmetricKey(data: key))
        #else
        let expected = try authenticationCode(key: key, message: message)
        guard code.count == expected.count else { return false }
        return code.withUnsafeBytes { x in
            expected.withUnsafeBytes { y in boutique_constant_time_equal(x.baseAddress, y.baseAddress, x.count) == 1 }
        }
        #endif
    }
}
