/// Values by row for one pushed transaction: what its check noted of the rows it touched.
///
/// Most transactions touch a row or two, so a few entries are searched in order, which costs no
/// hashing (an address hashes its table name and key). From ``indexedFrom`` entries on they get an
/// index, so a thousand-row transaction stays linear.
struct RowScratch<Value> {
    /// From this many entries on, lookups go through a dictionary.
    static var indexedFrom: Int { 12 }

    private var entries: [(address: RowAddress, value: Value)] = []
    private var index: [RowAddress: Int]?

    /// The value noted for `address`, `nil` when none was.
    subscript(address: RowAddress) -> Value? {
        position(of: address).map { entries[$0].value }
    }

    /// Notes `value` for `address`, in place of the one noted before.
    mutating func note(_ value: Value, for address: RowAddress) {
        if index != nil {
            // One hash of the address: claim the next position, and give it back if the row had one.
            if let position = index?.updateValue(entries.count, forKey: address) {
                index?[address] = position
                entries[position].value = value
            } else {
                entries.append((address, value))
            }
        } else if let position = entries.firstIndex(where: { $0.address == address }) {
            entries[position].value = value
        } else {
            entries.append((address, value))
            if entries.count >= Self.indexedFrom {
                index = Dictionary(uniqueKeysWithValues: entries.indices.map { (entries[$0].address, $0) })
            }
        }
    }

    private func position(of address: RowAddress) -> Int? {
        if let index { return index[address] }
        return entries.firstIndex { $0.address == address }
    }
}
