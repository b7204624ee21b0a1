/// Whether a synced row exists, as a register of its own: the latest insert or delete decides.
///
/// ```swift
/// let deleted = ExistenceRegister(exists: false, stamp: later)
/// ExistenceRegister.merge(ExistenceRegister(exists: true, stamp: earlier), deleted).exists   // false
/// ```
///
/// Updates do not touch it, so an update never brings a deleted row back; an insert stamped after the
/// delete does. At an equal stamp the delete wins.
public struct ExistenceRegister: Hashable, Sendable, Codable {
    /// `true` after an insert, `false` after a delete.
    public var exists: Bool
    /// The insert or delete that set it.
    public var stamp: SyncStamp

    /// A register set by an insert (`exists`) or a delete at `stamp`.
    public init(exists: Bool, stamp: SyncStamp) {
        self.exists = exists
        self.stamp = stamp
    }

    /// The register that wins: the later stamp, and at an equal stamp the delete.
    public static func merge(_ a: ExistenceRegister, _ b: ExistenceRegister) -> ExistenceRegister {
        if a.stamp != b.stamp { return a.stamp < b.stamp ? b : a }
        return a.exists ? b : a
    }
}
