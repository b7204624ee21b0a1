import BoutiqueDB

/// SHA-256 of a short value, through BoutiqueDB's hasher (CryptoKit on Apple platforms, OpenSSL's
/// libcrypto elsewhere): what binds a replica id to its device's secret (`ReplicaSecret`) and names a
/// tenant's file (`TenantFileName`).
///
/// ```swift
/// let digest = try SHA256Digest.of(Array("acme".utf8))   // 32 bytes
/// ```
enum SHA256Digest {
    /// The SHA-256 of `bytes` (32 bytes).
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/syncUnavailable(reason:)`` when libcrypto fails.
    static func of(_ bytes: [UInt8]) throws -> [UInt8] {
        guard let digest = SHA256Hasher.digest(of: bytes) else {
            throw BoutiqueError.syncUnavailable(reason: "OpenSSL could not compute a SHA-256")
        }
        return digest
    }
}
