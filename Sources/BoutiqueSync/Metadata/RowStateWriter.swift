/// Writes row states as a merge produces them, a hundred to a statement (``RowStates/write(_:records:)``),
/// their records encoded into one buffer that is reused from statement to statement.
struct RowStateWriter {
    let states: RowStates
    private var records = RowRecordBuffer()
    private var rows: [(table: String, key: DatabaseValue, record: Range<Int>)] = []

    init(states: RowStates) {
        self.states = states
        rows.reserveCapacity(RowStates.rowsPerWrite)
    }

    mutating func write(_ state: RowRegister, table: String, key: DatabaseValue) throws {
        rows.append((table, key, records.append(state)))
        if rows.count == RowStates.rowsPerWrite { try flush() }
    }

    /// Writes the state `change` describes (see ``RowRecordBuffer/append(stateOf:)``).
    mutating func write(stateOf change: SyncChange, table: String, key: DatabaseValue) throws {
        rows.append((table, key, records.append(stateOf: change)))
        if rows.count == RowStates.rowsPerWrite { try flush() }
    }

    /// Writes what is waiting.
    mutating func flush() throws {
        guard !rows.isEmpty else { return }
        try states.write(rows, records: records)
        rows.removeAll(keepingCapacity: true)
        records.removeAll()
    }
}
