/// Carries a moved row's followers with it: a reminder moved to another list takes its tag links
/// along, and their own followers, to any depth.
///
/// Each follower moved is logged as a change with no columns in its new space, noting the space it
/// left: devices that see only the old space delete it, devices that see only the new one receive its
/// state, devices that see both relabel it.
struct SpaceMoves {
    let store: any SyncStoreTransaction
    let origin: String

    /// Moves the followers of `parent` (now in `to`), and theirs; notes their new placements in `memo`
    /// and returns the rows it moved.
    @discardableResult
    func carry(children parent: RowAddress, to: SyncSpace, stamp: SyncStamp, batch: Int64?, memo: inout PlacementMemo) throws
        -> Set<RowAddress>
    {
        var moved: Set<RowAddress> = []
        var pending = [parent]
        var seen: Set<RowAddress> = [parent]
        while let next = pending.popLast() {
            for child in try store.children(of: SnapshotPosition(table: next.table, key: next.key)) {
                let address = RowAddress(table: child.table, key: child.key)
                // A chain that comes back to a row already moved (rules whose followers form a cycle
                // through the devices' schema) stops there.
                guard seen.insert(address).inserted, var placement = try store.placement(table: child.table, key: child.key),
                    placement.space != to
                else { continue }
                let left = placement.space
                placement.space = to
                try store.setPlacement(placement, table: child.table, key: child.key)
                memo.note(placement, of: address, byChange: false)
                moved.insert(address)
                let marker = SyncChange(table: child.table, key: child.key, kind: .update, columns: [], stamp: stamp)
                _ = try store.appendChange(marker, origin: origin, batch: batch, space: to, movedFrom: left)
                pending.append(address)
            }
        }
        return moved
    }
}
