import BoutiqueSQLite

/// One row change seen during a write, waiting for its transaction to commit.
///
/// ```swift
/// CapturedChange(kind: .update, table: "note", rowID: 3, before: [...], after: [...], statement: 0)
/// ```
///
/// The values are the row's stored columns in table order, as the preupdate hook reports them; which
/// ones are kept depends on the capture mode. An insert's or a delete's image is encoded right away
/// when the table's layout is already known (``encoded``); others are encoded at commit, when the
/// layout can be read and an update's assigned columns found.
struct CapturedChange {
    var kind: RowChangeKind
    var table: String
    var rowID: Int64
    var before: [DatabaseValue]?
    var after: [DatabaseValue]?
    /// The statement that made an update, as an index into ``ChangeCapture``'s statement texts, to find
    /// the columns it assigned; -1 when unknown.
    var statement: Int32 = -1
    /// The `updates` flags when they are known without the statement (schema changes): one per column.
    var assigned: [Bool]?
    /// The values of the `updates` record where they are not `after`'s: the `ALTER TABLE` statement that
    /// changed a table's `sqlite_schema` row, as the new `sql`.
    var updatedValues: [DatabaseValue]?
    /// The layout of the table when the change was made, set when a later statement of the transaction
    /// changed the schema; `nil` for the layout at commit.
    var layout: TableLayout?
    /// The record of the image (`after` of an insert, `before` of a delete), already encoded in the
    /// transaction's captured bytes.
    var encoded: Range<Int>?
}
