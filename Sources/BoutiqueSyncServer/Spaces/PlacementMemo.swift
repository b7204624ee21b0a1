/// The placements one push has read or written, by row: the thousand reminders of one list look their
/// list up once, and a row the push changed is not read again.
///
/// Only what the store holds goes here (a placement read, or one the applier wrote); a transaction's
/// check keeps its own scratch placements apart, since a refused transaction writes nothing.
struct PlacementMemo {
    private var known: [RowAddress: RowPlacement?] = [:]

    /// The row's placement, read from `store` the first time.
    mutating func placement(of address: RowAddress, in store: any SyncStoreTransaction) throws -> RowPlacement? {
        if let found = known[address] { return found }
        let read = try store.placement(table: address.table, key: address.key)
        known[address] = .some(read)
        return read
    }

    /// Notes a placement the push wrote.
    mutating func note(_ placement: RowPlacement, of address: RowAddress) { known[address] = .some(placement) }
}
