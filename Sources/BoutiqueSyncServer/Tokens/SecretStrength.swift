import Foundation

/// The rule a token secret must meet, checked when a ``SyncTokenSigner`` is made: it refuses secrets
/// that are obviously guessable, not ones that merely look random (no test can tell that).
///
/// A secret passes when it has
/// 1. at least ``SyncTokenSigner/minimumSecretLength`` (32) bytes;
/// 2. at least 3 bits of entropy per byte, as measured by how often each byte value occurs in it
///    (Shannon entropy of its byte counts): 32 bytes of one value have 0, of two values at most 1; a
///    random hex string has about 3.8, base64 about 5, raw random bytes about 5 (at 32 bytes);
/// 3. no shorter block repeated to make it (`abcdabcd…`), which rule 2 cannot see.
///
/// `openssl rand -base64 32` and `openssl rand -hex 32` always pass.
package enum SecretStrength {
    /// The fewest bits of entropy per byte a secret must show (rule 2).
    package static let minimumBitsPerByte = 3.0

    /// Why `secret` is too weak, or `nil` when it meets the rule.
    package static func weakness(of secret: [UInt8]) -> String? {
        guard secret.count >= SyncTokenSigner.minimumSecretLength else {
            return "the token secret has \(secret.count) bytes; it needs at least \(SyncTokenSigner.minimumSecretLength)"
        }
        var counts = [Int](repeating: 0, count: 256)
        for byte in secret { counts[Int(byte)] += 1 }
        let total = Double(secret.count)
        let bitsPerByte = counts.reduce(0.0) { sum, count in
            guard count > 0 else { return sum }
            let share = Double(count) / total
            return sum - share * log2(share)
        }
        guard bitsPerByte >= minimumBitsPerByte else {
            let distinct = counts.filter { $0 > 0 }.count
            return "the token secret is too predictable: \(distinct) distinct byte value(s), "
                + "\(String(format: "%.1f", bitsPerByte)) bits of entropy per byte (it needs \(Int(minimumBitsPerByte)))"
        }
        if let period = (1...(secret.count / 2)).first(where: { period in
            (period..<secret.count).allSatisfy { secret[$0] == secret[$0 - period] }
        }) {
            return "the token secret is one block of \(period) bytes repeated"
        }
        return nil
    }
}
