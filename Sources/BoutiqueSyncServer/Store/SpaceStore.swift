/// Where a row lives, as a store keeps it next to the row's state: its space, and the row it follows
/// (for a follower), so that moving a row finds the rows that move with it.
public struct RowPlacement: Hashable, Sendable {
    /// The row's space.
    public var space: SyncSpace
    /// The row a follower's foreign key points to; `nil` for other rows.
    public var parent: SnapshotPosition?

    /// A placement.
    public init(space: SyncSpace, parent: SnapshotPosition? = nil) {
        self.space = space
        self.parent = parent
    }

    /// The common space, following nothing: every row of a server without rules.
    public static let common = RowPlacement(space: .common)
}

/// A user joining or leaving a space, at its place in the tenant's sequence.
public struct MembershipChange: Hashable, Sendable {
    /// Its position in the tenant's sequence.
    public var sequence: Int64
    /// The space.
    public var space: SyncSpace
    /// Whether the user joined (or left).
    public var joined: Bool

    /// A membership change.
    public init(sequence: Int64, space: SyncSpace, joined: Bool) {
        self.sequence = sequence
        self.space = space
        self.joined = joined
    }
}

/// What a store keeps for a server with ``/BoutiqueSync/SyncRules``: each row's space, the log's spaces, members of
/// shared spaces with their history in the tenant's sequence, and the synced tables' shapes.
///
/// Spaces and users are bound values like every other name; a store indexes the log and the rows by
/// space so that a user's pulls and snapshots cost what that user's spaces hold.
public protocol SyncSpaceStoreTransaction {
    /// The placement of a row the store holds (tombstones included), `nil` when it holds none.
    func placement(table: String, key: DatabaseValue) throws -> RowPlacement?
    /// Stores a row's state, sequence and placement (as ``SyncStoreTransaction/setRowState(_:table:key:sequence:)``
    /// does, with the placement too).
    func setRowState(_ state: RowRegister, table: String, key: DatabaseValue, sequence: Int64, placement: RowPlacement) throws
    /// Moves a row the store holds to another placement, its state unchanged.
    func setPlacement(_ placement: RowPlacement, table: String, key: DatabaseValue) throws
    /// The rows whose placement follows `parent`.
    func children(of parent: SnapshotPosition) throws -> [SnapshotPosition]
    /// One space's rows in (table, key) order after `position` (whose space is ignored), tombstones
    /// included, each carrying the space.
    func rows(in space: SyncSpace, after position: SnapshotPosition?, limit: Int) throws -> [SnapshotRow]
    /// One space's rows of one table in key order after `key` (from the first when `nil`), tombstones
    /// included, each carrying the space.
    func rows(in space: SyncSpace, table: String, after key: DatabaseValue?, limit: Int) throws -> [SnapshotRow]
    /// The stored sizes of the rows' states, in bytes, of the rows ``rows(in:after:limit:)`` would return.
    func rowSizes(in space: SyncSpace, after position: SnapshotPosition?, limit: Int) throws -> [Int]
    /// The stored sizes of the rows' states, in bytes, of the rows ``rows(in:table:after:limit:)`` would return.
    func rowSizes(in space: SyncSpace, table: String, after key: DatabaseValue?, limit: Int) throws -> [Int]
    /// How many rows the spaces hold together, tombstones included.
    func rowCount(in spaces: [SyncSpace]) throws -> Int

    /// Appends a change of a row in `space` to the log (``SyncStoreTransaction/appendChange(_:origin:batch:)``),
    /// noting the space the change moved the row from, if it moved it.
    func appendChange(
        _ change: SyncChange, origin: String, batch: Int64?, space: SyncSpace, movedFrom: SyncSpace?
    ) throws -> (sequence: Int64, batch: Int64)
    /// The log entries in (`after`, `through`] whose space or moved-from space is one of `spaces`, in
    /// sequence order; only those of `batch` when it is given.
    func changes(after: Int64, through: Int64, visibleIn spaces: [SyncSpace], batch: Int64?) throws -> [LoggedChange]
    /// The server transactions with an entry in (`after`, `through`], in order, each with the stored size
    /// of its entries that ``changes(after:through:visibleIn:batch:)`` would return for `spaces` (an
    /// entry of another space counts nothing). The last one is counted through at most
    /// ``LogBatchSize/countedChanges(limit:)`` sequence numbers after `after`, the range's length as the
    /// limit (``LogBatchSize/countedThrough(after:through:)``): a transaction of hundreds of thousands
    /// of changes is not read whole for each page that counts it.
    func batchSizes(after: Int64, through: Int64, visibleIn spaces: [SyncSpace]) throws -> [LogBatchSize]
    /// Takes the next sequence number for something that is not a logged change (a membership change).
    func reserveSequence() throws -> Int64

    /// A space's members now.
    func members(of space: SyncSpace) throws -> [SyncMember]
    /// Records that a device or tool with a token naming `user` reached the server in this tenant.
    func noteConnected(_ user: String) throws
    /// Whether ``noteConnected(_:)`` recorded `user` in this tenant.
    func hasConnected(_ user: String) throws -> Bool
    /// Gives `user` `role` in `space`, or removes them (`role` `nil`). Joining and leaving are recorded
    /// at `sequence`; a new role for a member is not (reads do not change).
    func setMember(_ user: String, role: SyncRole?, in space: SyncSpace, sequence: Int64) throws
    /// The spaces `user` is a member of, with their roles: at `sequence` (after the changes at or
    /// before it), or now when `nil`.
    func memberships(of user: String, at sequence: Int64?) throws -> [SyncSpace: SyncRole]
    /// The first time after `sequence` that `user` joined or left a space.
    func nextMembershipChange(of user: String, after sequence: Int64) throws -> MembershipChange?
    /// Removes the history of memberships that ended at or before `sequence`: no pull reads from
    /// before the log's horizon, so none can ask about them.
    func pruneMemberships(through sequence: Int64) throws

    /// The synced tables' shapes, as devices last described them (shared by every tenant).
    func tableShapes() throws -> [SyncTableShape]
    /// Records the shapes a device described, replacing the ones of the same tables, and moves
    /// ``tableShapesVersion()`` on.
    func setTableShapes(_ shapes: [SyncTableShape]) throws
    /// A number that every change of the tenant's shapes moves on (0 before the first). A server keeps
    /// the shapes in memory with the number it read them at, and reads them again when the store's
    /// differs: another server sharing the store (an instance on the same PostgreSQL database) changed
    /// them. Read with the tenant's counters, it costs a push nothing more.
    func tableShapesVersion() throws -> Int64
}
