import Foundation

/// Ids for replicas. (Writer ids, one per open database, are BoutiqueDB's: see `commitStampWriter`.)
enum SyncIdentity {
    /// A new replica id (a lowercase UUID).
    static func newReplicaID() -> String { UUID().uuidString.lowercased() }
}
