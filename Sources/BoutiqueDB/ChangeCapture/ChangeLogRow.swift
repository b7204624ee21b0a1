import BoutiqueSQLite

/// One row of `turso_cdc` as it is written: the change and its encoded records.
///
/// ```swift
/// ChangeLogRow(type: 1, table: "note", id: .integer(3), before: nil, after: RecordEncoder.encode(values), updates: nil)
/// ChangeLogRow.commit   // type 2, everything else NULL
/// ```
struct ChangeLogRow {
    /// 1 insert, 0 update, -1 delete, 2 commit.
    var type: Int64
    var table: String?
    var id: DatabaseValue
    var before: [UInt8]?
    var after: [UInt8]?
    var updates: [UInt8]?

    static let commit = ChangeLogRow(type: 2, table: nil, id: .null, before: nil, after: nil, updates: nil)

    /// The `change_type` of a row change.
    static func type(of kind: RowChangeKind) -> Int64 {
        switch kind {
        case .insert: 1
        case .update: 0
        case .delete: -1
        }
    }
}
