/// Applies the space events of a pull page (``SpaceEvent``) inside its transaction, after its changes.
///
/// Events come in log order; applying them after the page's data changes gives the same rows as
/// interleaving them: a row that arrives is merged from its whole current state (which includes every
/// change the page holds for it), and a change to a row that left can only follow an event that
/// brought it back.
enum SpaceEvents {
    /// Applies `events`; returns the tables rows left (to check their children's foreign keys).
    static func apply(
        _ events: [SpaceEvent], applier: inout RemoteApplier, tables: [String: SyncedTable], sql: SQLRunner
    ) throws -> Set<String> {
        guard !events.isEmpty else { return [] }
        let labels = SpaceLabels(sql: sql)
        var exits: Set<String> = []
        for event in events {
            let row = event.row.map { (table: RemoteApplier.lowercased($0.table), key: $0.key) }
            switch event.kind {
            case .rowArrived:
                guard let snapshot = event.row, let row else { continue }
                try applier.apply([snapshot])
                try labels.set(snapshot.space ?? event.space, table: row.table, key: row.key)
            case .rowLeft:
                guard let row else { continue }
                exits.formUnion(try SpaceExit.remove([row], tables: tables, sql: sql))
            case .left:
                exits.formUnion(try SpaceExit.remove(try labels.rows(in: event.space), tables: tables, sql: sql))
            case .joined:
                // Moved in once the page commits (``SyncSession/moveIn(_:at:)``).
                continue
            }
        }
        return exits
    }
}
