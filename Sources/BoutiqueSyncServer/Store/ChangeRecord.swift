/// A logged change's kind, stamp and columns as one SQLite record (its table and key are columns of
/// their own).
///
/// Layout: kind (`insert`, `update`, `delete`), stamp time, stamp replica, then name and value per
/// column, then, when the writer said how far it had pulled (``SyncChange/seen``), that cursor: an odd
/// value after the stamp is the cursor (records written before it have none).
enum ChangeRecord {
    static func encode(_ change: SyncChange) -> [UInt8] {
        var values: [DatabaseValue] = [
            .text(change.kind.rawValue), .integer(Int64(bitPattern: change.stamp.time.rawValue)), .text(change.stamp.replica),
        ]
        for column in change.columns {
            values.append(.text(column.name))
            values.append(column.value)
        }
        if let seen = change.seen { values.append(.integer(seen)) }
        return RecordEncoder.encode(values)
    }

    static func decode(_ bytes: [UInt8], table: String, key: DatabaseValue) throws(BoutiqueError) -> SyncChange {
        var values: [DatabaseValue]
        do { values = try RecordDecoder.decode(bytes) } catch { throw malformed(String(describing: error)) }
        var seen: Int64?
        if values.count >= 4, (values.count - 3) % 2 == 1 {
            guard case .integer(let cursor) = values.removeLast() else { throw malformed("a cursor that is no integer") }
            seen = cursor
        }
        guard values.count >= 3, (values.count - 3) % 2 == 0, case .text(let kindText) = values[0],
            let kind = SyncChange.Kind(rawValue: kindText), case .integer(let time) = values[1],
            case .text(let replica) = values[2]
        else { throw malformed("\(values.prefix(3))") }
        var columns: [SyncColumnValue] = []
        var index = 3
        while index < values.count {
            guard case .text(let name) = values[index] else { throw malformed("column name \(values[index])") }
            columns.append(SyncColumnValue(name: name, value: values[index + 1]))
            index += 2
        }
        var change = SyncChange(
            table: table, key: key, kind: kind, columns: columns,
            stamp: SyncStamp(time: HybridTimestamp(rawValue: UInt64(bitPattern: time)), replica: replica))
        change.seen = seen
        return change
    }

    private static func malformed(_ found: String) -> BoutiqueError {
        .decoding(.init(table: "boutique_sync_server_log", column: "change", expectedType: "a logged change", found: found))
    }
}
