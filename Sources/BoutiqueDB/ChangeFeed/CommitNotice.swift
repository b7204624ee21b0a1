/// A committed transaction, as live queries and change-feed readers hear of it.
///
/// ```swift
/// CommitNotice(token: ChangeToken(changeID: 42), tables: ["note"], isExternal: false)
/// ```
struct CommitNotice: Sendable {
    /// The transaction's COMMIT row; `nil` when the log is off or the position is unknown.
    var token: ChangeToken?
    /// The tables it changed, lowercased (`sqlite_schema` for schema changes); `nil` when unknown,
    /// which means every table may have changed.
    var tables: Set<String>?
    /// `true` for a commit made by another connection to the file (another process).
    var isExternal: Bool
    /// `true` for a transaction that applied another replica's changes (``TransactionOrigin/remote``).
    var isRemote = false
    /// `true` for the last notice of all: the database closed, no commit follows, and observers end.
    var isClose = false
    /// Set when the notice is published on the writer's thread right after the commit: its connection
    /// and the time it may spend refreshing quick live queries itself. `nil` elsewhere (another
    /// process's commits), where every refresh goes to a reader's queue.
    var refresh: CommitRefresh?

    /// The notice a closing database sends its observers.
    static let close = CommitNotice(token: nil, tables: [], isExternal: false, isClose: true)

    /// Whether the transaction may have changed something a reader of `region` sees. A region of `nil`
    /// (not known yet) is touched by every commit; a schema change touches every region.
    func touches(_ region: ReadRegion?) -> Bool {
        guard let tables, let region else { return true }
        if changesSchema { return true }
        return region.intersects(tables)
    }

    /// Whether the transaction changed the schema (or may have: its tables are unknown).
    var changesSchema: Bool {
        tables?.contains("sqlite_schema") ?? true
    }
}
