/// The rows a pulled batch touches, in the order the batch first names them, each with what arrived
/// for it: one array and one hash lookup per change.
struct PendingRows {
    /// A row of a table, by the table's lowercased name and the row's key.
    struct RowID: Hashable {
        let table: String
        let key: DatabaseValue
    }

    /// What arrived for a row: a change, or a whole state (a snapshot's).
    enum Arrival {
        case change(SyncChange)
        case state(RowRegister)

        /// The state it describes.
        var register: RowRegister {
            switch self {
            case .change(let change): MergeRule.register(for: change)
            case .state(let state): state
            }
        }

        /// The columns it names.
        var columnNames: [String] {
            switch self {
            case .change(let change): change.columns.map(\.name)
            case .state(let state): Array(state.cells.keys)
            }
        }
    }

    /// A row with what arrived for it, in order, and the state it had before the batch.
    struct Row {
        let id: RowID
        /// The first arrival; ``later`` holds the others (most rows have one, and an empty array costs
        /// nothing).
        let first: Arrival
        var later: [Arrival] = []
        var before: RowRegister?

        var arrivals: [Arrival] { [first] + later }

        /// The row's state after the batch: its state before joined with every arrival, the table's
        /// collaborative text columns `textColumns` merged as text.
        func merged(textColumns: Set<String>) -> RowRegister {
            // The arrivals are joined first, then into the state: the same join (it is associative),
            // but a row's collaborative text operations then meet its (large) state once.
            var arrivals = first.register
            for arrival in later { MergeRule.join(arrival.register, into: &arrivals, textColumns: textColumns) }
            guard var state = before else { return arrivals }
            MergeRule.join(arrivals, into: &state, textColumns: textColumns)
            return state
        }
    }

    private(set) var rows: [Row] = []
    /// Each table with the indices of its rows, tables in the order the batch first names them.
    private(set) var tables: [(name: String, indices: [Int])] = []
    private var slots: [RowID: Int] = [:]

    init(capacity: Int) {
        rows.reserveCapacity(capacity)
        slots.reserveCapacity(capacity)
    }

    var isEmpty: Bool { rows.isEmpty }

    mutating func add(_ id: RowID, _ arrival: Arrival) {
        if let index = slots[id] {
            rows[index].later.append(arrival)
            return
        }
        slots[id] = rows.count
        // Changes mostly come table by table: the last table is checked first.
        if let last = tables.indices.last, tables[last].name == id.table {
            tables[last].indices.append(rows.count)
        } else if let known = tables.firstIndex(where: { $0.name == id.table }) {
            tables[known].indices.append(rows.count)
        } else {
            tables.append((id.table, [rows.count]))
        }
        rows.append(Row(id: id, first: arrival))
    }

    /// Records the state a row had before the batch.
    mutating func setBefore(_ state: RowRegister, at index: Int) { rows[index].before = state }
}
