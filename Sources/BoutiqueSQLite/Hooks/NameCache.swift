/// The Swift string of the C string seen last, made again only when the text differs.
///
/// The row-change hooks report each change's database and table name as C strings; a bulk write
/// reports thousands of changes to one table, and making two strings for each of them cost more than
/// the rest of the call. Compared by content, not by address: SQLite may free a table's name and give
/// the address to another.
struct NameCache {
    private var bytes: [CChar] = [0]
    private var string = ""

    mutating func string(for name: UnsafePointer<CChar>?) -> String {
        guard let name else { return "" }
        if matches(name) { return string }
        var length = 0
        while name[length] != 0 { length += 1 }
        bytes = Array(UnsafeBufferPointer(start: name, count: length + 1))
        string = String(cString: name)
        return string
    }

    /// Whether `name` has the text of ``bytes``, read no further than the first difference.
    private func matches(_ name: UnsafePointer<CChar>) -> Bool {
        bytes.withUnsafeBufferPointer { known in
            var index = 0
            while true {
                let byte = name[index]
                // `known` ends with a NUL, so a longer `name` differs there and stops the loop.
                if byte != known[index] { return false }
                if byte == 0 { return true }
                index += 1
            }
        }
    }
}
