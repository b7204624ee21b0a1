/// One column's value in a synced row, with the stamp of the write that set it.
///
/// ```swift
/// let title = CellRegister(value: .text("Groceries"), stamp: stamp)
/// CellRegister.merge(title, other)   // the later stamp's value
/// ```
public struct CellRegister: Hashable, Sendable {
    /// The column's value.
    public var value: DatabaseValue
    /// The write that set it.
    public var stamp: SyncStamp

    /// A value set at `stamp`.
    public init(value: DatabaseValue, stamp: SyncStamp) {
        self.value = value
        self.stamp = stamp
    }

    /// The register that wins: the later stamp; at an equal stamp (which one write never produces
    /// twice) the larger value, so the merge stays commutative whatever it is given. The values of a
    /// collaborative text column (`asText`) merge instead (``CollaborativeText``): the result holds
    /// both edits. Only the column says so: any other column's value is opaque bytes, whatever they
    /// start with.
    public static func merge(_ a: CellRegister, _ b: CellRegister, asText: Bool = false) -> CellRegister {
        if asText, CollaborativeTextValue.isEncoded(a.value) || CollaborativeTextValue.isEncoded(b.value),
           let merged = CollaborativeTextValue.merge(a, b)
        {
            return merged
        }
        if a.stamp != b.stamp { return a.stamp < b.stamp ? b : a }
        return ValueOrder.precedes(a.value, b.value) ? b : a
    }
}

/// A total order on values, used only to break ties the merge rule should never see.
enum ValueOrder {
    static func precedes(_ a: DatabaseValue, _ b: DatabaseValue) -> Bool {
        switch (a, b) {
        case (.integer(let x), .integer(let y)): return x < y
        case (.real(let x), .real(let y)): return x.bitPattern < y.bitPattern
        case (.text(let x), .text(let y)): return x.utf8.lexicographicallyPrecedes(y.utf8)
        case (.blob(let x), .blob(let y)): return x.lexicographicallyPrecedes(y)
        default: return rank(a) < rank(b)
        }
    }

    private static func rank(_ value: DatabaseValue) -> Int {
        switch value {
        case .null: 0
        case .integer: 1
        case .real: 2
        case .text: 3
        case .blob: 4
        }
    }
}
