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
    /// A digest of its id, stamp and changes (see ``SyncDigest``).
    public var digest: UInt64

    /// A transaction; its digest is computed from the rest.
    public init(id: Int64, stamp: SyncStamp, changes: [SyncChange]) {
        self.id = id
        self.stamp = stamp
        self.changes = changes
        self.digest = SyncDigest.of(id: id, stamp: stamp, changes: changes)
    }
}

/// A 64-bit FNV-1a digest of a transaction's content: the same transaction always has the same
/// digest, a different transaction under the same id almost never does.
///
/// It is not a security measure (the server trusts an authenticated device); it tells a retried push
/// from a device that was restored from a backup or cloned and wrote something else under the same id.
/// The replica id is left out: a device that takes a new one still pushes the same transactions. The
/// stamp's writer is in: two histories of one file (a backup restored, a copy) can write the same
/// change under the same id at the same clock reading, and are still different transactions.
public enum SyncDigest {
    /// The digest of a transaction's id, stamp (time and writer) and changes.
    public static func of(id: Int64, stamp: SyncStamp, changes: [SyncChange]) -> UInt64 {
        var running = Running(id: id, time: stamp.time)
        running.add(changes)
        return running.finished(writer: stamp.replica)
    }

    /// The digest of a transaction's id, stamp time and changes, without its writer: what app versions
    /// before the writer was digested sent, which a server still accepts.
    public static func of(id: Int64, time: HybridTimestamp, changes: [SyncChange]) -> UInt64 {
        var running = Running(id: id, time: time)
        running.add(changes)
        return running.state
    }

    /// A transaction's digest taken over its changes a slice at a time (a transaction sent in parts:
    /// ``PushPart``), equal to ``of(id:stamp:changes:)`` of the whole. ``state`` is what to keep
    /// between slices.
    ///
    /// ```swift
    /// var running = SyncDigest.Running(id: 9, time: stamp.time)
    /// running.add(firstSlice)
    /// running.add(secondSlice)
    /// running.finished(writer: stamp.replica) == SyncDigest.of(id: 9, stamp: stamp, changes: firstSlice + secondSlice)
    /// ```
    public struct Running: Hashable, Sendable {
        /// The digest of what was added so far, writer left out.
        public private(set) var state: UInt64

        /// A digest of transaction `id`'s changes, none added yet.
        public init(id: Int64, time: HybridTimestamp) {
            var hasher = FNV()
            hasher.add(.integer(id))
            hasher.add(.integer(Int64(bitPattern: time.rawValue)))
            state = hasher.value
        }

        /// Goes on from a ``state`` kept before.
        public init(resuming state: UInt64) {
            self.state = state
        }

        /// Adds the next changes, in the transaction's order.
        public mutating func add(_ changes: some Sequence<SyncChange>) {
            var hasher = FNV(seed: state)
            for change in changes {
                hasher.add(.text(change.table))
                hasher.add(change.key)
                hasher.add(.text(change.kind.rawValue))
                hasher.add(.integer(Int64(change.columns.count)))
                for column in change.columns {
                    hasher.add(.text(column.name))
                    hasher.add(column.value)
                }
            }
            state = hasher.value
        }

        /// The whole transaction's digest, once every change was added.
        public func finished(writer: String) -> UInt64 {
            var hasher = FNV(seed: state)
            hasher.add(.text(writer))
            return hasher.value
        }
    }

    /// FNV-1a over each value's type tag, length and bytes (so that `"ab", "c"` and `"a", "bc"` differ).
    struct FNV {
        private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

        init() {}

        /// A digest that goes on from `seed`.
        init(seed: UInt64) { value = seed }

        @inline(__always)
        mutating func byte(_ byte: UInt8) {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01b3
        }

        mutating func word(_ word: UInt64) {
            var remaining = word
            for _ in 0..<8 {
                byte(UInt8(truncatingIfNeeded: remaining))
                remaining >>= 8
            }
        }

        mutating func add(_ value: DatabaseValue) {
            switch value {
            case .null: byte(0)
            case .integer(let number):
                byte(1)
                word(UInt64(bitPattern: number))
            case .real(let number):
                byte(2)
                word(number.bitPattern)
            case .text(let text):
                byte(3)
                word(UInt64(text.utf8.count))
                // Native strings hand over their UTF-8 in place; a bridged one is walked unit by unit.
                if text.utf8.withContiguousStorageIfAvailable({ bytes($0) }) == nil {
                    for unit in text.utf8 { byte(unit) }
                }
            case .blob(let blob):
                byte(4)
                word(UInt64(blob.count))
                blob.withUnsafeBufferPointer { bytes($0) }
            }
        }

        mutating func bytes(_ buffer: UnsafeBufferPointer<UInt8>) {
            for unit in buffer { byte(unit) }
        }
    }
}
