import BoutiqueSQLite

/// The rows of `turso_cdc` one transaction appends, encoded: each row's records and table name are
/// ranges of one shared byte buffer, so that writing them binds bytes in place instead of copying
/// every record and name once more.
///
/// ```swift
/// var batch = ChangeLogBatch()
/// batch.append(type: 1, table: "note", id: .integer(3), before: nil, after: values, updates: nil)
/// ```
struct ChangeLogBatch {
    /// One row: 1 insert, 0 update, -1 delete (the COMMIT row is added when writing).
    ///
    /// Plain values only, so that a batch of many thousand rows is made and freed without touching
    /// each row: the `id` of a WITHOUT ROWID table's row, a key of any type, waits in ``keys``.
    struct Row {
        var type: Int64
        var table: Range<Int>
        /// The rowid, when ``keyIndex`` is -1.
        var rowID: Int64
        /// The index of the row's key in ``keys``, or -1 for a rowid.
        var keyIndex: Int32
        var before: Range<Int>?
        var after: Range<Int>?
        var updates: Range<Int>?
    }

    var rows: [Row] = []
    /// The records and table names, back to back.
    var bytes: [UInt8] = []
    /// The ids that are not rowids.
    var keys: [DatabaseValue] = []
    private var lastTable: (name: String, range: Range<Int>)?

    /// A batch that adds its records to `bytes`, which it takes over (so it grows without a copy).
    init(bytes: consuming [UInt8] = []) {
        self.bytes = bytes
    }

    /// The `id` column of `row`.
    func id(of row: Row) -> DatabaseValue {
        row.keyIndex < 0 ? .integer(row.rowID) : keys[Int(row.keyIndex)]
    }

    var isEmpty: Bool { rows.isEmpty }
    var count: Int { rows.count }

    mutating func append(
        _ kind: RowChangeKind, table: String, id: DatabaseValue, before: [DatabaseValue]?, after: [DatabaseValue]?,
        updates: [DatabaseValue]?
    ) {
        let (rowID, keyIndex) = identify(id)
        rows.append(Row(
            type: Self.type(of: kind), table: tableRange(table), rowID: rowID, keyIndex: keyIndex,
            before: before.map { record($0) }, after: after.map { record($0) }, updates: updates.map { record($0) }))
    }

    /// Adds a row whose records are already in ``bytes``.
    mutating func append(
        _ kind: RowChangeKind, table: String, id: DatabaseValue, encodedBefore: Range<Int>?, encodedAfter: Range<Int>?
    ) {
        let (rowID, keyIndex) = identify(id)
        rows.append(Row(
            type: Self.type(of: kind), table: tableRange(table), rowID: rowID, keyIndex: keyIndex,
            before: encodedBefore, after: encodedAfter, updates: nil))
    }

    /// A row's `id` as ``Row`` keeps it.
    private mutating func identify(_ id: DatabaseValue) -> (rowID: Int64, keyIndex: Int32) {
        if case .integer(let rowID) = id { return (rowID, -1) }
        keys.append(id)
        return (0, Int32(keys.count - 1))
    }

    private mutating func record(_ values: [DatabaseValue]) -> Range<Int> {
        let start = bytes.count
        RecordEncoder.append(values, to: &bytes)
        return start..<bytes.count
    }

    /// A table name's bytes, stored once for a run of rows of the same table.
    private mutating func tableRange(_ table: String) -> Range<Int> {
        if let lastTable, lastTable.name == table { return lastTable.range }
        let start = bytes.count
        bytes.append(contentsOf: table.utf8)
        let range = start..<bytes.count
        lastTable = (table, range)
        return range
    }

    /// The `change_type` of a row change.
    static func type(of kind: RowChangeKind) -> Int64 {
        switch kind {
        case .insert: 1
        case .update: 0
        case .delete: -1
        }
    }
}
