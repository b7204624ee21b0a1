import BoutiqueSQLite

/// One row change of a committed transaction, read back from the change log.
///
/// ```swift
/// for try await transaction in db.changes(since: token) {
///     for change in transaction.changes where change.table == "note" {
///         switch change.kind {
///         case .insert, .update: upsert(try change.after(as: Note.self))
///         case .delete: remove(change.rowID)
///         }
///     }
/// }
/// ```
///
/// The images hold the row's stored columns in table order, as the log recorded them; ``columns``
/// names them as the table is now (a column added since the change has no value in an older image).
public struct RowChange: Sendable, Hashable {
    /// The change's `change_id` in the log.
    public let changeID: Int64
    /// The changed table (`sqlite_schema` for a schema change).
    public let table: String
    /// Insert, update or delete.
    public let kind: RowChangeKind
    /// The log's `id`: the rowid, or for a `WITHOUT ROWID` table its key (a record for a key of several
    /// columns).
    public let id: DatabaseValue
    /// The row as it was, for updates and deletes when the log records it.
    public let before: [DatabaseValue]?
    /// The row as it became, for inserts and updates when the log records it.
    public let after: [DatabaseValue]?
    /// For an update logged in full mode: the positions of the columns the statement assigned.
    public let assignedColumns: [Int]?
    /// The table's stored columns as the table is now, `nil` when it no longer exists.
    public let columns: [String]?

    /// A row change as the change log holds it.
    public init(
        changeID: Int64, table: String, kind: RowChangeKind, id: DatabaseValue, before: [DatabaseValue]?,
        after: [DatabaseValue]?, assignedColumns: [Int]?, columns: [String]?
    ) {
        self.changeID = changeID
        self.table = table
        self.kind = kind
        self.id = id
        self.before = before
        self.after = after
        self.assignedColumns = assignedColumns
        self.columns = columns
    }

    /// The rowid, when the log's `id` is one.
    public var rowID: Int64? {
        if case .integer(let value) = id { value } else { nil }
    }

    /// The names of the assigned columns of an update, when known.
    public var assignedColumnNames: [String]? {
        guard let assignedColumns, let columns else { return nil }
        return assignedColumns.compactMap { columns.indices.contains($0) ? columns[$0] : nil }
    }

    /// The value of `column` in `image` (``before`` or ``after``), `nil` when the image or the column is
    /// missing.
    ///
    /// ```swift
    /// change.value("title", in: change.after)   // .text("Groceries")
    /// ```
    public func value(_ column: String, in image: [DatabaseValue]?) -> DatabaseValue? {
        guard let image, let columns else { return nil }
        let lowered = column.lowercased()
        guard let index = columns.firstIndex(where: { $0.lowercased() == lowered }), image.indices.contains(index) else {
            return nil
        }
        return image[index]
    }
}
