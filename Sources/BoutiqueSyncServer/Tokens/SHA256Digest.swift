#if canImport(CryptoKit)
import CryptoKit
#else
import CCrypto
#endif

/// SHA-256, from CryptoKit on Apple platforms and OpenSSL's libcrypto elsewhere: what binds a replica id
/// to its device's secret (`ReplicaSecret`) and names a tenant's file (`TenantFileName`).
///
/// ```swift
/// let digest = try SHA256Digest.of(Array("acme".utf8))   // 32 bytes
/// ```
enum SHA256Digest {
    /// The SHA-256 of `bytes` (32 bytes).
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/syncUnavailable(reason:)`` when libcrypto fails.
    static func of(_ bytes: [UInt8]) throws -> [UInt8] {
        #if canImport(CryptoKit)
        return Array(SHA256.hash(data: bytes))
        #else
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBytes { input in
            EVP_Digest(input.baseAddress, input.count, &digest, &length, EVP_sha256(), nil)
        }
        guard ok == 1, length == 32 else { throw BoutiqueError.syncUnavailable(reason: "OpenSSL could not compute a SHA-256") }
        return digest
        #endif
    }
}
