/// A local change that sync discarded or undid while merging, with the values it threw away.
///
/// Merging never fails, so some local work loses: an edit of a row another device deleted, an edit of
/// a column another device changed too without having seen it, a move into a parent another device
/// deleted, a row added under such a parent. Sync reports each one to the device that made the change
/// (and only to it) through ``BoutiqueSync/losses``, so that the app can tell the user or put the
/// content back:
///
/// ```swift
/// for await loss in sync.losses {
///     if loss.table == "note", loss.kind == .editBeatenByDelete {
///         showBanner("Your edit of a note deleted on another device was not kept")
///     }
/// }
/// ```
///
/// A loss is sent once its cause is committed: the pull that merged the delete or the concurrent edit,
/// or the local change that repaired the row (which sync pushes, so that every device ends the same
/// way). Each discarded write is reported once.
///
/// An edit overwritten by a later one made *with knowledge of it* is not a loss: another user read it
/// and changed it, as on a single device (see ``Kind/editBeatenByConcurrentEdit``).
///
/// ``values`` and ``row`` decode into the app's model with ``values(as:)``:
///
/// ```swift
/// if loss.kind == .editBeatenByConcurrentEdit, let mine = try? loss.values(as: Reminder.self) {
///     offerToKeep(mine.title)
/// }
/// ```
public struct SyncLoss: Sendable, Hashable {
    /// Why a local change was discarded.
    ///
    /// ```swift
    /// switch loss.kind {
    /// case .editBeatenByDelete, .removedWithDeletedParent: offerRestore(loss.values)
    /// case .editBeatenByConcurrentEdit: offerToKeepMine(loss.values)
    /// case .moveIntoDeletedParent, .changedWithDeletedParent: showMovedBack(loss.key)
    /// }
    /// ```
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Another device deleted the row; this device's edits of it are gone. The delete wins
        /// whichever was later: an update never brings a deleted row back. ``SyncLoss/values`` holds the
        /// edited columns.
        case editBeatenByDelete
        /// This device moved the row into a parent another device deleted (it changed a foreign-key
        /// column of an existing row): the move lost and the row is back in its previous parent, its
        /// content kept. ``SyncLoss/values`` holds the foreign-key column as the move set it.
        case moveIntoDeletedParent
        /// The row, which this device added or edited, pointed at a parent another device deleted, and
        /// the foreign key's declared action (`ON DELETE CASCADE`, `RESTRICT`, `NO ACTION`) removed it.
        /// ``SyncLoss/values`` holds the whole row as it was.
        case removedWithDeletedParent
        /// The row pointed at a parent another device deleted and its foreign key's declared action
        /// (`ON DELETE SET NULL` or `SET DEFAULT`) changed the column, or the row's previous parent was
        /// gone too. ``SyncLoss/values`` holds the foreign-key column as this device set it.
        case changedWithDeletedParent
        /// Another device changed the same column of the row, later by the merge rule, without having
        /// this device's edit when it made its change (its pull had not brought the edit yet: both were
        /// made offline, say). The other value is kept. ``SyncLoss/values`` holds the columns of this
        /// device's edit that were overwritten so, as it set them.
        ///
        /// A change made after pulling this device's edit overwrites it knowingly and is no loss.
        case editBeatenByConcurrentEdit
    }

    /// The table's name, lowercased as sync carries it.
    public var table: String
    /// The row's primary key.
    public var key: DatabaseValue
    /// What happened.
    public var kind: Kind
    /// The discarded values by column name, spelled as the table declares it: the edited columns, the
    /// moved foreign key, or the whole row (see ``Kind``).
    public var values: [String: DatabaseValue]
    /// The stamp of this device's discarded write (its hybrid-logical-clock time, and the writer).
    public var stamp: SyncStamp
    /// The whole row as this device showed it just before the loss, the discarded values included, by
    /// column name as the table declares it, for ``Kind/editBeatenByConcurrentEdit`` and
    /// ``Kind/editBeatenByDelete``; empty for the other kinds (``Kind/removedWithDeletedParent``
    /// carries the whole row in ``values``) and when the device did not show the row then.
    public var row: [String: DatabaseValue] = [:]

    /// A loss.
    ///
    /// ```swift
    /// let loss = SyncLoss(table: "note", key: .text(id), kind: .editBeatenByDelete,
    ///                     values: ["title": .text("Draft")], stamp: stamp)
    /// ```
    public init(table: String, key: DatabaseValue, kind: Kind, values: [String: DatabaseValue], stamp: SyncStamp) {
        self.table = table
        self.key = key
        self.kind = kind
        self.values = values
        self.stamp = stamp
    }

    /// A loss, with the row as the device showed it before.
    public init(
        table: String, key: DatabaseValue, kind: Kind, values: [String: DatabaseValue], stamp: SyncStamp, row: [String: DatabaseValue]
    ) {
        self.init(table: table, key: key, kind: kind, values: values, stamp: stamp)
        self.row = row
    }

    /// The discarded values as a row of the app's `@Table` type: ``row`` with ``values`` over it, so
    /// that a loss of a few columns decodes into the row as this device had written it.
    ///
    /// ```swift
    /// let mine = try loss.values(as: Reminder.self)   // title as this device set it
    /// offerRestore(mine)
    /// ```
    ///
    /// A column with no value in either takes its declared default, or `nil` when optional; otherwise
    /// this throws a `BoutiqueError` naming the column (a loss of a row this device did not show).
    public func values<T: Table>(as type: T.Type) throws -> T {
        try SyncRowValues.decode(row.merging(values) { _, discarded in discarded }, as: type, source: table)
    }
}
