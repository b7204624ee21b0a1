import Foundation

/// Ids for replicas and writing sessions.
enum SyncIdentity {
    /// A new replica id (a lowercase UUID).
    static func newReplicaID() -> String { UUID().uuidString.lowercased() }

    /// A writer id for one session: 64 random bits in hex, enough that two sessions never share one.
    static func newWriterID() -> String {
        let value = UInt64.random(in: .min ... .max)
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
