/// The placements of parent rows one push has read or written: the thousand reminders of one list
/// look their list up once. It also lists, in order, where the push's changes placed their rows: the
/// push's answer tells the device where each went.
///
/// Only rows of tables that others follow are remembered (only those are looked up as parents); any
/// other row's placement is read from the store each time, which holds what the push wrote. Only what
/// the store holds goes here (a placement read, or one the applier wrote); a transaction's check keeps
/// its own scratch placements apart, since a refused transaction writes nothing.
struct PlacementMemo {
    /// Whether rows of a table are remembered.
    private let remembers: (String) -> Bool
    private var known: [RowAddress: RowPlacement?] = [:]
    /// The latest remembered row asked about.
    private var last: (address: RowAddress, placement: RowPlacement?)?
    /// Where the push's changes placed their rows, in order: a row placed twice is there twice, the
    /// latest last.
    private(set) var placed: [SnapshotPosition] = []
    /// The most rows ``placed`` lists: past it, it lists none (an answer carries the list, and a
    /// device that is not told where rows went keeps what it knew).
    var placedLimit = Int.max
    private var placedOverflowed = false

    /// A memo that remembers the rows of the tables `remembers` says.
    init(remembering remembers: @escaping (String) -> Bool) { self.remembers = remembers }

    /// The row's placement: for a remembered row, read from `store` the first time.
    mutating func placement(of address: RowAddress, in store: any SyncStoreTransaction) throws -> RowPlacement? {
        // A list's reminders mostly come one after the other: comparing beats hashing.
        if let last, last.address == address { return last.placement }
        guard remembers(address.table) else { return try store.placement(table: address.table, key: address.key) }
        let found: RowPlacement?
        if let known = known[address] {
            found = known
        } else {
            found = try store.placement(table: address.table, key: address.key)
            known[address] = .some(found)
        }
        last = (address, found)
        return found
    }

    /// Makes room for `count` changed rows.
    mutating func reserveCapacity(_ count: Int) { placed.reserveCapacity(count) }

    /// Notes a placement the push wrote: `byChange` for a row a pushed change placed, else a row a
    /// move carried along (which the answer leaves out: the device hears of it as any move).
    mutating func note(_ placement: RowPlacement, of address: RowAddress, byChange: Bool) {
        if remembers(address.table) {
            known[address] = .some(placement)
            if last?.address == address { last = (address, placement) }
        }
        if byChange, !placedOverflowed {
            if placed.count < placedLimit {
                placed.append(SnapshotPosition(table: address.table, key: address.key, space: placement.space))
            } else {
                placedOverflowed = true
                placed = []
            }
        }
    }
}
