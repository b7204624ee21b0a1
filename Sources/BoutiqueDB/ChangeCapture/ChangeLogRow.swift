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
    struct Row {
        var type: Int64
        var table: Range<Int>
        var id: DatabaseValue
        var before: Range<Int>?
        var after: Range<Int>?
        var updates: Range<Int>?
    }

    var rows: [Row] = []
    /// The records and table names, back to back.
    var bytes: [UInt8] = []
    private var lastTable: (name: String, range: Range<Int>)?

    init(bytes: [UInt8] = []) {
        self.bytes = bytes
    }

    var isEmpty: Bool { rows.isEmpty }
    var count: Int { rows.count }

    mutating func append(
        _ kind: RowChangeKind, table: String, id: DatabaseValue, before: [DatabaseValue]?, after: [DatabaseValue]?,
        updates: [DatabaseValue]?
    ) {
        rows.append(Row(
            type: Self.type(of: kind), table: tableRange(table), id: id, before: before.map { record($0) },
            after: after.map { record($0) }, updates: updates.map { record($0) }))
    }

    /// Adds a row whose records are already in ``bytes``.
    mutating func append(
        _ kind: RowChangeKind, table: String, id: DatabaseValue, encodedBefore: Range<Int>?, encodedAfter: Range<Int>?
    ) {
        rows.append(Row(
            type: Self.type(of: kind), table: tableRange(table), id: id, before: encodedBefore, after: encodedAfter,
            updates: nil))
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
