/// One local write transaction as a device pushes it: whole, with its stamp and digest.
///
/// ```swift
/// let transaction = SyncTransaction(id: 57, stamp: stamp, changes: changes)
/// transaction.digest   // what the server remembers to tell a retry from a restored device
/// ```
public struct SyncTransaction: Hashable, Sendable, Codable {
    /// The device's `change_txn_id` for it: pushes go in this order, and the server's watermark for the
    /// replica is the latest one applied.
    public var id: Int64
    /// The transaction's stamp; every change carries it too.
    public var stamp: SyncStamp
    /// Its row changes, at most one per row.
    public var changes: [SyncChange]
    /// A digest of its id, stamp time and changes (see ``SyncDigest``).
    public var digest: UInt64

    public init(id: Int64, stamp: SyncStamp, changes: [SyncChange]) {
        self.id = id
        self.stamp = stamp
        self.changes = changes
        self.digest = SyncDigest.of(id: id, time: stamp.time, changes: changes)
    }
}

/// A 64-bit FNV-1a digest of a transaction's content: the same transaction always has the same
/// digest, a different transaction under the same id almost never does.
///
/// It is not a security measure (the server trusts an authenticated device); it tells a retried push
/// from a device that was restored from a backup or cloned and wrote something else under the same id.
/// The replica id is left out: a device that takes a new one still pushes the same transactions.
public enum SyncDigest {
    public static func of(id: Int64, time: HybridTimestamp, changes: [SyncChange]) -> UInt64 {
        var values: [DatabaseValue] = [.integer(id), .integer(Int64(bitPattern: time.rawValue))]
        for change in changes {
            values.append(.text(change.table))
            values.append(change.key)
            values.append(.text(change.kind.rawValue))
            values.append(.integer(Int64(change.columns.count)))
            for column in change.columns {
                values.append(.text(column.name))
                values.append(column.value)
            }
        }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in RecordEncoder.encode(values) {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}
