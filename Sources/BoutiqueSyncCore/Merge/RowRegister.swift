/// Everything known about one synced row: its existence, the latest delete, and each column's value
/// with the stamp that set it. The state devices and the server keep, and merge.
///
/// ```swift
/// var row = RowRegister()
/// MergeRule.apply(insert, to: &row)
/// MergeRule.apply(olderUpdate, to: &row)   // loses where the insert was later
/// row.isVisible                            // true
/// row.visibleValues["title"]               // the insert's title
/// ```
///
/// Values of a column this app version does not know are kept like any other: the state is the whole
/// row as every device wrote it, and the local table shows the part the schema has room for.
public struct RowRegister: Hashable, Sendable, Codable {
    /// Whether the row exists; `nil` when only updates were seen (the row does not exist).
    public var existence: ExistenceRegister?
    /// The latest delete seen: values written before it belong to the deleted row and are not shown
    /// again when a later insert revives it.
    public var lastDelete: SyncStamp?
    /// Column name → value and stamp.
    public var cells: [String: CellRegister]

    /// A state; empty by default (nothing known of the row).
    public init(existence: ExistenceRegister? = nil, lastDelete: SyncStamp? = nil, cells: [String: CellRegister] = [:]) {
        self.existence = existence
        self.lastDelete = lastDelete
        self.cells = cells
    }

    /// Whether the row exists by the merge rule.
    public var isVisible: Bool { existence?.exists == true }

    /// Whether `cell` was written after the latest delete (and so belongs to the current row).
    public func isCurrent(_ cell: CellRegister) -> Bool {
        guard let lastDelete else { return true }
        return lastDelete < cell.stamp
    }

    /// The values the row shows: the cells written after its latest delete, as they are kept (a
    /// collaborative text column's as its merge state: see ``visibleValues(textColumns:)``).
    public var visibleValues: [String: DatabaseValue] {
        var values: [String: DatabaseValue] = [:]
        for (name, cell) in cells where isCurrent(cell) { values[name] = cell.value }
        return values
    }

    /// The values the row shows, the collaborative text columns `textColumns` (lowercased) as their
    /// strings.
    public func visibleValues(textColumns: Set<String>) -> [String: DatabaseValue] {
        var values = visibleValues
        for name in textColumns { if let value = values[name] { values[name] = CollaborativeTextValue.shown(value) } }
        return values
    }

    /// Whether the write stamped `stamp` is in the state: its existence, its latest delete or a cell.
    public func holds(_ stamp: SyncStamp) -> Bool {
        existence?.stamp == stamp || lastDelete == stamp || cells.values.contains { $0.stamp == stamp }
    }

    /// The latest stamp anywhere in the row.
    public var latestStamp: SyncStamp? {
        var latest = existence?.stamp
        if let lastDelete, latest.map({ $0 < lastDelete }) ?? true { latest = lastDelete }
        for cell in cells.values where latest.map({ $0 < cell.stamp }) ?? true { latest = cell.stamp }
        return latest
    }
}
