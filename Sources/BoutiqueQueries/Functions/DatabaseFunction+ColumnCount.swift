extension DatabaseFunction {
    /// How many SQL arguments parameters read with `representations` take: one each, except a
    /// ``Table``, which takes one per column (a row passed as `$0`), and a ``QuerySelection``, whose
    /// width is not known before the call (then `-1`: any number).
    ///
    /// ```swift
    /// var argumentCount: Int { Self.columnCount(of: [String.self, Reminder.self]) }   // 1 + the columns of Reminder
    /// ```
    ///
    /// `@DatabaseFunction` computes a function's ``argumentCount`` with it, so that SQLite refuses a
    /// call with another number of arguments when the statement is prepared.
    public static func columnCount(of representations: [any QueryRepresentable.Type]) -> Int {
        var count = 0
        for representation in representations {
            if representation is any QuerySelection.Type {
                // Checked before `Table`, which a selection also is: a field may hold a whole table.
                return -1
            } else if let table = representation as? any Table.Type {
                count += table.schema.count
            } else {
                count += 1
            }
        }
        return count
    }
}
