/// A pull on a server with rules: the log entries of the spaces the user was in at each point of the
/// sequence, and the events that change what they see.
///
/// The user's spaces change only where they join or leave one, so a page covers the sequence up to
/// (not past) the next such point, with the spaces the user had at the cursor: the entries of those
/// spaces, and of rows moving into or out of them. The point itself ends the page as an event
/// (``/BoutiqueSync/SpaceEvent/Kind/joined`` or ``/BoutiqueSync/SpaceEvent/Kind/left``), which the
/// device handles before pulling on — except a space the user created, whose rows are all in the log
/// from that point: the page goes on with it. A page reads at most `limit` sequence numbers (plus the
/// rest of a transaction it cut, unless that rest is itself more than `limit` and 256 changes: a
/// transaction a device sent in parts then goes over several pages), visible or not, so a request's cost is bounded whatever the other
/// spaces hold; and at most `maximumBytes` of visible changes, counted per whole server transaction
/// before they are read (the page ends after the last transaction that fits, the first however large:
/// the cursor then stands at a transaction's end, where the next page resumes). Rows moving in carry
/// their whole state, which counts against the same bytes once the transaction that moves them is
/// read: the page ends before a transaction whose arrivals do not fit (unless the page holds nothing
/// yet), and a row that arrives several times in one page (moved back and forth) carries its state
/// once, with its last arrival: the state is the row's current one each time.
struct SpacePull {
    let store: any SyncStoreTransaction
    let user: String
    let replica: String

    struct Page {
        var changes: [ServerChange] = []
        var events: [SpaceEvent] = []
        /// The replica's own changes the page passes (not sent as changes: it has them).
        var own: [ServerChange] = []
        var next: Int64
        var hasMore: Bool
        /// The bytes counted for the page's changes and the states of its arrivals.
        var bytes = 0
        /// Each row arriving in the page, with the index in ``events`` of its latest arrival: an earlier
        /// one carries the same state and is left out when the page is done.
        var arrivals: [SnapshotPosition: Int] = [:]

        var isEmpty: Bool { changes.isEmpty && events.isEmpty }

        /// The page as sent: each row's state once, at its last arrival.
        mutating func finish() {
            guard arrivals.count < events.count(where: { $0.kind == .rowArrived }) else { return }
            events = events.enumerated().compactMap { index, event in
                guard event.kind == .rowArrived, let row = event.row else { return event }
                return arrivals[SnapshotPosition(table: row.table, key: row.key)] == index ? event : nil
            }
        }
    }

    func page(after cursor: Int64, limit: Int, maximumBytes: Int, latest: Int64) throws -> Page {
        var spaces = Set(try store.memberships(of: user, at: cursor).keys)
        spaces.insert(.common)
        spaces.insert(.private(user: user))
        // The most sequence numbers a page reads, visible or not.
        let budget = min(latest, cursor + Int64(max(limit, 1)))
        var page = Page(next: cursor, hasMore: false)
        var bytes = PageBudget(maximumBytes: maximumBytes)
        var from = cursor
        while true {
            let membership = try store.nextMembershipChange(of: user, after: from)
            let upper = min(latest, membership.map { $0.sequence - 1 } ?? latest)
            var end = min(upper, budget)
            if end > from {
                let batches = try store.batchSizes(after: from, through: end, visibleIn: spaces.sorted())
                // A transaction that began at or before `from` is one the page is inside (after a space it
                // created): it is finished whatever it weighs.
                let inside = batches.first.map { $0.batch <= from } ?? false
                let fitting = bytes.take(batches.map(\.bytes), continuing: inside)
                // The byte budget ends the page after the last whole transaction that fits.
                if fitting < batches.count { end = fitting == 0 ? from : min(end, batches[fitting - 1].last) }
            }
            var logged = end > from ? try store.changes(after: from, through: end, visibleIn: spaces.sorted(), batch: nil) : []
            from = max(from, end)
            if end < upper || bytes.isSpent {
                // The budget ends the page, on a whole server transaction, as a device applies it.
                let start = from
                // The rest of a transaction the page cut, unless that rest is more than a page reads
                // (a transaction a device sent in parts): then the next pages carry it. It is counted
                // only far enough to tell (a bounded part of it, not the whole rest).
                let most = Int64(max(limit, PullReading.largeTransactionChanges))
                if let last = logged.last, let whole = try store.batchSizes(after: end, through: end + most + 1, visibleIn: spaces.sorted()).first,
                    whole.batch != last.batch || whole.last - end <= most
                {
                    let rest = try store.changes(after: end, through: upper, visibleIn: spaces.sorted(), batch: last.batch)
                    logged += rest
                    from = max(from, rest.last?.entry.sequence ?? from)
                }
                if let through = try deliver(logged, after: start, seeing: spaces, into: &page, bytes: &bytes) { from = through }
                break
            }
            if let through = try deliver(logged, after: from, seeing: spaces, into: &page, bytes: &bytes) {
                from = through
                break
            }
            guard let membership, membership.sequence <= latest else { break }
            if membership.joined, try createdSpace(at: membership) {
                // The user created the space at this point (inserted its root row): every row of it is
                // in the log from here on, so the page goes on seeing it rather than moving it in. The
                // transaction of the root's insert counts against the page's bytes: when it does not
                // fit, the page ends before it (at a transaction's end, unless the page is inside it).
                let sizes = try store.batchSizes(
                    after: from, through: membership.sequence, visibleIn: spaces.union([membership.space]).sorted())
                let inside = sizes.first.map { $0.batch <= from } ?? false
                guard bytes.take(sizes.map(\.bytes), continuing: inside) == sizes.count else { break }
                spaces.insert(membership.space)
                let created = try store.changes(
                    after: from, through: membership.sequence, visibleIn: spaces.sorted(), batch: nil)
                if let through = try deliver(created, after: from, seeing: spaces, into: &page, bytes: &bytes) {
                    from = through
                    break
                }
                from = membership.sequence
                continue
            }
            page.events.append(SpaceEvent(sequence: membership.sequence, kind: membership.joined ? .joined : .left, space: membership.space))
            from = membership.sequence
            break
        }
        page.next = from
        page.hasMore = from < latest
        page.bytes = bytes.used
        page.finish()
        return page
    }

    /// Delivers `logged` (read after `start`) a server transaction at a time, the states of the rows it
    /// moves in counted against `bytes`. Stops before a transaction whose arrivals do not fit, unless
    /// the page holds nothing else, and returns the sequence number the page then ends at (the last
    /// transaction delivered, or `start`); `nil` when everything was delivered.
    private func deliver(
        _ logged: [LoggedChange], after start: Int64, seeing spaces: Set<SyncSpace>, into page: inout Page, bytes: inout PageBudget
    ) throws -> Int64? {
        var through = start
        var index = logged.startIndex
        while index < logged.endIndex {
            let batch = logged[index].batch
            var end = index
            while end < logged.endIndex, logged[end].batch == batch { end += 1 }
            let wasEmpty = page.isEmpty
            let kept = (changes: page.changes.count, events: page.events.count, own: page.own.count, arrivals: page.arrivals)
            var arriving = 0
            for entry in logged[index..<end] { arriving += try deliver(entry, seeing: spaces, into: &page) }
            if arriving > 0, !bytes.spend(arriving, firstItem: wasEmpty) {
                page.changes.removeLast(page.changes.count - kept.changes)
                page.events.removeLast(page.events.count - kept.events)
                page.own.removeLast(page.own.count - kept.own)
                page.arrivals = kept.arrivals
                return through
            }
            through = logged[end - 1].entry.sequence
            index = end
        }
        return nil
    }

    /// Whether the user joined at the sequence number of the space's root row's insert (its creator
    /// does): a share takes a sequence number of its own, with no log entry.
    private func createdSpace(at membership: MembershipChange) throws -> Bool {
        try !store.changes(after: membership.sequence - 1, through: membership.sequence, visibleIn: [membership.space], batch: nil).isEmpty
    }

    /// What a log entry is for a user who sees `spaces`. Returns the bytes of the row state it adds to
    /// the page (a row arriving for the first time in it), 0 otherwise.
    private func deliver(_ entry: LoggedChange, seeing spaces: Set<SyncSpace>, into page: inout Page) throws -> Int {
        let change = entry.entry.change
        let isOwn = entry.origin == replica
        if isOwn { page.own.append(entry.entry) }
        guard let from = entry.movedFrom else {
            // The device's own changes are not sent back to it (it has them).
            if !isOwn { page.changes.append(entry.entry) }
            return 0
        }
        let row = SnapshotPosition(table: change.table, key: change.key)
        switch (spaces.contains(from), spaces.contains(entry.space)) {
        case (_, true):
            // Moved into a space the user sees: the row's whole state, even from a space they saw too
            // (a space moved in after the row left it did not bring it, so the device may not hold it),
            // if it is still where the user sees it (a row that moved on since is not theirs to see; a
            // later entry says where it went).
            guard let placement = try store.placement(table: row.table, key: row.key), spaces.contains(placement.space),
                let state = try store.rowState(table: row.table, key: row.key)
            else { return 0 }
            let first = page.arrivals[row] == nil
            page.arrivals[row] = page.events.count
            page.events.append(SpaceEvent(
                sequence: entry.entry.sequence, kind: .rowArrived, space: placement.space,
                row: SnapshotRow(table: row.table, key: row.key, state: state, space: placement.space)))
            return first ? state.record().count : 0
        case (true, false):
            page.events.append(SpaceEvent(
                sequence: entry.entry.sequence, kind: .rowLeft, space: from,
                row: SnapshotRow(table: row.table, key: row.key, state: RowRegister())))
            return 0
        case (false, false):
            return 0
        }
    }
}
