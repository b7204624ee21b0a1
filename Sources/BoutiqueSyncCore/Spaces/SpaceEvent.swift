/// A change of what a user sees, at its place in the tenant's log: a pull carries these next to the
/// data changes of the spaces the user is in.
///
/// - ``Kind/joined``: the user became a member of ``space``. The device moves it in: it pages through
///   the space's rows with a snapshot request for the space, then pulls on from ``sequence``.
/// - ``Kind/left``: the user is no longer a member. The device deletes the space's rows (as a remote
///   transaction, never pushed) and forgets them.
/// - ``Kind/rowArrived``: a row moved into a space the user is in (a reminder moved to a shared list):
///   ``row`` is its whole state and new space.
/// - ``Kind/rowLeft``: a row moved out of the user's spaces: the device deletes it and forgets it.
public struct SpaceEvent: Hashable, Sendable, Codable {
    /// What happened.
    public enum Kind: String, Hashable, Sendable, Codable {
        /// The user became a member of the space: the device moves it in.
        case joined
        /// The user is no longer a member of the space: the device deletes its rows.
        case left
        /// A row moved into a space the user sees: its whole state comes along.
        case rowArrived
        /// A row moved out of the user's spaces: the device deletes it.
        case rowLeft
    }

    /// Its position in the tenant's log.
    public var sequence: Int64
    /// What happened.
    public var kind: Kind
    /// The space joined or left, or the space the row moved to (``Kind/rowArrived``) or from
    /// (``Kind/rowLeft``).
    public var space: SyncSpace
    /// The row: its whole state for ``Kind/rowArrived``, an empty state for ``Kind/rowLeft``.
    public var row: SnapshotRow?

    /// An event.
    public init(sequence: Int64, kind: Kind, space: SyncSpace, row: SnapshotRow? = nil) {
        self.sequence = sequence
        self.kind = kind
        self.space = space
        self.row = row
    }
}
