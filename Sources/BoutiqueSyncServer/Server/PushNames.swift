/// Table and column names as the server keeps them: lowercased, whatever case a device sent.
///
/// ```swift
/// let request = PushNames.folded(request)   // "LISTS" and "Lists" are the table "lists"
/// ```
///
/// A push is folded after it is validated: a transaction's digest is the device's, over the names
/// it sent, and is kept as it came (the device compares it with its own).
///
/// SQLite names a table in any case (`LISTS` and `lists` are one table on a device), and devices of
/// this library send names lowercased. A name in another case must not be another table here: its
/// rows would be other rows, its root rows other spaces (which the pusher would own), and a device
/// applying them would fold the name and write over the rows of the real table. The rules, the table
/// shapes and membership requests fold names with `lowercased()`; pushes are folded the same way.
enum PushNames {
    /// `request` with every change's table and column names lowercased; the same request (no copy)
    /// when they are already.
    static func folded(_ request: PushRequest) -> PushRequest {
        guard request.transactions.contains(where: { $0.changes.contains(where: needsFolding) }) else { return request }
        var folded = request
        for index in folded.transactions.indices {
            for position in folded.transactions[index].changes.indices {
                var change = folded.transactions[index].changes[position]
                guard needsFolding(change) else { continue }
                change.table = fold(change.table)
                for column in change.columns.indices { change.columns[column].name = fold(change.columns[column].name) }
                folded.transactions[index].changes[position] = change
            }
        }
        return folded
    }

    private static func needsFolding(_ change: SyncChange) -> Bool {
        mayHaveUppercase(change.table) || change.columns.contains { mayHaveUppercase($0.name) }
    }

    static func fold(_ name: String) -> String { mayHaveUppercase(name) ? name.lowercased() : name }

    /// Whether `name` has an ASCII capital or any non-ASCII byte (which `lowercased()` may change).
    private static func mayHaveUppercase(_ name: String) -> Bool {
        name.utf8.contains { $0 >= 0x80 || ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) }
    }
}
