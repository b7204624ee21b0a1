#if canImport(CryptoKit)
import CryptoKit
#else
import CCrypto
#endif

/// The binding of a replica id to its device: the device sends the secret it made when it took the id
/// (``/BoutiqueSync/PushRequest/replicaSecret``); the server keeps the secret's SHA-256 from the first
/// push that carries one, and afterwards answers that id only to a request with the same secret.
///
/// ```swift
/// switch try ReplicaSecret.check(request.replicaSecret, against: record) {
/// case .wrong: return refusal       // another device's id: tell it nothing
/// case .matches, .unbound: break
/// }
/// ```
///
/// Without it, the 409 a push under someone else's id gets tells that replica's watermark and digest,
/// and a push built from them would be applied as theirs. A record from before secrets (or a device
/// that predates them) is unbound: it is answered as before, and bound at its next push with a secret.
/// Hashes are compared in constant time, so a refusal's timing tells nothing of the stored hash.
enum ReplicaSecret {
    enum Verdict: Equatable {
        /// The replica id is bound and the request carries its secret.
        case matches
        /// The replica id is bound to no secret yet (or is unknown).
        case unbound
        /// The replica id is bound to another secret, or the request carries none.
        case wrong
    }

    /// How `secret` fares against `record`'s binding.
    static func check(_ secret: String?, against record: ReplicaRecord?) throws -> Verdict {
        guard let bound = record?.secretHash else { return .unbound }
        guard let secret else { return .wrong }
        return isEqual(try hash(secret), bound) ? .matches : .wrong
    }

    /// Why a request under `replica` with the wrong secret is refused.
    static func refusal(_ replica: String) -> String {
        "replica id '\(replica.prefix(128))' belongs to another device (the request does not carry its secret); take a new replica id"
    }

    /// The SHA-256 of the secret's UTF-8 bytes.
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/syncUnavailable(reason:)`` when libcrypto fails.
    static func hash(_ secret: String) throws -> [UInt8] {
        try SHA256Digest.of(Array(secret.utf8))
    }

    /// Whether two hashes are equal, in time independent of where they differ.
    private static func isEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        #if canImport(CryptoKit)
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
        #else
        return a.withUnsafeBytes { x in b.withUnsafeBytes { y in boutique_constant_time_equal(x.baseAddress, y.baseAddress, x.count) == 1 } }
        #endif
    }
}
