/// Applies the space events of a pull page (``SpaceEvent``) inside its transaction, after its changes.
///
/// Events come in log order; applying them after the page's data changes gives the same rows as
/// interleaving them: a row that arrives is merged from its whole current state (which includes every
/// change the page holds for it), and a change to a row that left can only follow an event that
/// brought it back.
enum SpaceEvents {
    /// The tables the events wrote rows to and removed rows from, whose foreign keys the pull checks.
    struct Outcome {
        var written: Set<String> = []
        var removed: Set<String> = []
        /// The rows another user's move took out of what this user sees (``SyncDeparture``).
        var departures: [SyncDeparture] = []
        /// The attachments the removed rows pointed at (``AttachmentDeparture``).
        var attachments: Set<String> = []
    }

    /// Applies `events`.
    static func apply(
        _ events: [SpaceEvent], applier: inout RemoteApplier, tables: [String: SyncedTable], sql: SQLRunner
    ) throws -> Outcome {
        guard !events.isEmpty else { return Outcome() }
        let labels = SpaceLabels(sql: sql)
        let states = try RowStates(sql: sql)
        let projector = RowProjector(sql: sql)
        var outcome = Outcome()
        for event in events {
            let row = event.row.map { (table: RemoteApplier.lowercased($0.table), key: $0.key) }
            switch event.kind {
            case .rowArrived:
                guard let snapshot = event.row, let row else { continue }
                try applier.apply([snapshot])
                try labels.set(snapshot.space ?? event.space, table: row.table, key: row.key)
                // The table shows the merged state whether or not the merge changed it: the device may
                // hold the state without the row (a row a repair or a cascade took out of its table).
                if let table = tables[row.table], let state = try states.state(table: row.table, key: row.key) {
                    try projector.reproject(state, key: row.key, table: table)
                    outcome.written.insert(row.table)
                }
            case .rowLeft:
                guard let row else { continue }
                // Reported when the device showed the row: the row as it was, not where it went.
                if let table = tables[row.table], let state = try states.state(table: row.table, key: row.key), state.isVisible {
                    outcome.departures.append(SyncDeparture(
                        table: row.table, key: row.key, row: table.declaredNames(state.visibleValues(textColumns: table.collaborativeColumns))))
                }
                outcome.removed.formUnion(try SpaceExit.remove([row], tables: tables, attachments: &outcome.attachments, sql: sql))
            case .left:
                outcome.removed.formUnion(
                    try SpaceExit.remove(try labels.rows(in: event.space), tables: tables, attachments: &outcome.attachments, sql: sql))
            case .joined:
                // Moved in once the page commits (``SyncSession/moveIn(_:at:)``).
                continue
            }
        }
        return outcome
    }
}
