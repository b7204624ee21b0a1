/// How the columns a pulled change names map onto its table's whole row (``SyncedTable/wholeRowOrder``).
///
/// Worked out once for the column names a table's changes share (a device's inserts into a table all
/// name the same columns in the same order), so that most changes need a few string comparisons
/// instead of a lookup of each column by name.
struct PulledColumns {
    /// The names, as the changes give them (lowercased).
    let names: [String]
    /// Per name, its place in the whole row (0 is the key); `nil` when the table has no such synced column.
    let places: [Int?]
    /// The names the table does not have: their values are parked.
    let unknown: [String]
    /// Whether no name is given twice.
    let distinct: Bool
    /// Whether the names fill every place of the whole row, so that a change gives the row's values.
    let complete: Bool
    /// The whole row's width.
    let width: Int
    /// Per name, whether it is a collaborative text column (shown as its string).
    let isText: [Bool]

    init(names: [String], table: SyncedTable?) {
        self.names = names
        var places: [Int?] = []
        var unknown: [String] = []
        width = table?.wholeRowOrder.count ?? 0
        var filled = Array(repeating: false, count: width)
        var distinct = true
        for (index, name) in names.enumerated() {
            if names[..<index].contains(name) { distinct = false }
            guard let table, let position = table.position(of: name),
                let place = table.wholeRowOrder.firstIndex(of: table.lowercasedColumns[position])
            else {
                places.append(nil)
                unknown.append(name)
                continue
            }
            places.append(place)
            filled[place] = true
        }
        self.places = places
        self.unknown = unknown
        isText = names.map { table?.collaborativeColumns.contains($0) ?? false }
        self.distinct = distinct
        // The key's place is filled from the row's key, whether or not the change repeats it.
        complete = table != nil && distinct && filled.dropFirst().allSatisfy { $0 }
    }

    /// Whether `columns` name exactly these columns, in this order.
    func matches(_ columns: [SyncColumnValue]) -> Bool {
        guard columns.count == names.count else { return false }
        for (column, name) in zip(columns, names) where column.name != name { return false }
        return true
    }

    /// Appends the row's values in whole-row order, the key first; the columns must be ``complete``.
    func appendWholeRow(_ columns: [SyncColumnValue], key: DatabaseValue, to values: inout [DatabaseValue]) {
        let start = values.count
        values.append(key)
        values.append(contentsOf: repeatElement(.null, count: width - 1))
        for (index, (column, place)) in zip(columns, places).enumerated() {
            guard let place, place > 0 else { continue }
            values[start + place] = isText[index] ? CollaborativeTextValue.shown(column.value) : column.value
        }
    }
}
