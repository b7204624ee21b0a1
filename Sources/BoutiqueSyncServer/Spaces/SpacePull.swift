/// A pull on a server with rules: the log entries of the spaces the user was in at each point of the
/// sequence, and the events that change what they see.
///
/// The user's spaces change only where they join or leave one, so a page covers the sequence up to
/// (not past) the next such point, with the spaces the user had at the cursor: the entries of those
/// spaces, and of rows moving into or out of them. The point itself ends the page as an event
/// (``/BoutiqueSync/SpaceEvent/Kind/joined`` or ``/BoutiqueSync/SpaceEvent/Kind/left``), which the device handles before pulling
/// on. A page reads at most `limit` sequence numbers (plus the rest of a transaction it cut), visible
/// or not, so a request's cost is bounded whatever the other spaces hold.
struct SpacePull {
    let store: any SyncStoreTransaction
    let user: String
    let replica: String

    struct Page {
        var changes: [ServerChange] = []
        var events: [SpaceEvent] = []
        var next: Int64
        var hasMore: Bool
    }

    func page(after cursor: Int64, limit: Int, latest: Int64) throws -> Page {
        var spaces = Set(try store.memberships(of: user, at: cursor).keys)
        spaces.insert(.common)
        spaces.insert(.private(user: user))
        let visible = spaces.sorted()
        let membership = try store.nextMembershipChange(of: user, after: cursor)
        let upper = min(latest, membership.map { $0.sequence - 1 } ?? latest)
        let end = min(upper, cursor + Int64(max(limit, 1)))
        var logged = end > cursor ? try store.changes(after: cursor, through: end, visibleIn: visible, batch: nil) : []
        var next = end
        // A page ends on a whole server transaction, as a device applies it.
        if end < upper, let last = logged.last {
            let rest = try store.changes(after: end, through: upper, visibleIn: visible, batch: last.batch)
            logged += rest
            next = max(next, rest.last?.entry.sequence ?? next)
        }
        var page = Page(next: next, hasMore: false)
        for entry in logged { try deliver(entry, seeing: spaces, into: &page) }
        if next == upper, let membership, membership.sequence <= latest {
            page.events.append(SpaceEvent(sequence: membership.sequence, kind: membership.joined ? .joined : .left, space: membership.space))
            page.next = membership.sequence
        }
        page.hasMore = page.next < latest
        return page
    }

    /// What a log entry is for a user who sees `spaces`.
    private func deliver(_ entry: LoggedChange, seeing spaces: Set<SyncSpace>, into page: inout Page) throws {
        let change = entry.entry.change
        let isOwn = entry.origin == replica
        guard let from = entry.movedFrom else {
            // The device's own changes are not sent back to it (it has them).
            if !isOwn { page.changes.append(entry.entry) }
            return
        }
        let row = SnapshotPosition(table: change.table, key: change.key)
        switch (spaces.contains(from), spaces.contains(entry.space)) {
        case (true, true):
            // Moved between two spaces the user sees: the data goes as a change (unless the device
            // made it), the new space as a relabelling either way.
            if !isOwn, !change.columns.isEmpty || change.kind != .update { page.changes.append(entry.entry) }
            page.events.append(SpaceEvent(
                sequence: entry.entry.sequence, kind: .rowMoved, space: entry.space,
                row: SnapshotRow(table: row.table, key: row.key, state: RowRegister())))
        case (false, true):
            // Arrived: the row's whole state, if it is still where the user sees it (a row that moved
            // on since is not theirs to see; a later entry says where it went).
            guard let placement = try store.placement(table: row.table, key: row.key), spaces.contains(placement.space),
                let state = try store.rowState(table: row.table, key: row.key)
            else { return }
            page.events.append(SpaceEvent(
                sequence: entry.entry.sequence, kind: .rowArrived, space: placement.space,
                row: SnapshotRow(table: row.table, key: row.key, state: state, space: placement.space)))
        case (true, false):
            page.events.append(SpaceEvent(
                sequence: entry.entry.sequence, kind: .rowLeft, space: from,
                row: SnapshotRow(table: row.table, key: row.key, state: RowRegister())))
        case (false, false):
            return
        }
    }
}
