import BoutiqueSQLite

/// Which columns an `UPDATE` statement assigns, per table, learnt by compiling the statement again with
/// an authorizer that listens for `SQLITE_UPDATE` actions.
///
/// ```swift
/// var assigned = AssignedColumns()
/// assigned.columns(of: "UPDATE note SET title = ? WHERE id = ?", on: writer, schemaVersion: 7)
/// // ["note": ["title"]]
/// ```
///
/// Turso's `updates` record flags the columns a statement assigns, also one set to the value it had;
/// the preupdate hook shows only old and new values. SQLite's authorizer names each assigned column
/// while a statement compiles (the `SET` list, an upsert's `DO UPDATE SET`, and the statements of the
/// triggers it fires), so compiling the statement's text once more, without running it, tells them.
/// Results are kept per SQL text until the schema changes.
struct AssignedColumns {
    private var cache: [String: [String: Set<String>]] = [:]
    private var schemaVersion: Int64 = -1

    /// The assigned columns of `sql` by lowercased table name (column names lowercased); `nil` when the
    /// statement no longer compiles (its table was dropped later in the transaction).
    mutating func columns(of sql: String, on connection: Connection, schemaVersion: Int64) -> [String: Set<String>]? {
        if schemaVersion != self.schemaVersion {
            cache.removeAll()
            self.schemaVersion = schemaVersion
        }
        if let known = cache[sql] { return known }
        let collected = Collected()
        do {
            try connection.setAuthorizer { event in
                if event.actionCode == AuthorizerEvent.update, let table = event.parameter1, let column = event.parameter2,
                    event.databaseName == nil || event.databaseName == "main"
                {
                    collected.columns[table.lowercased(), default: []].insert(column.lowercased())
                }
                return .allow
            }
            defer { try? connection.setAuthorizer(nil) }
            let statement = try connection.prepare(sql)
            statement.finalize()
        } catch {
            return nil
        }
        if cache.count > 512 { cache.removeAll() }
        cache[sql] = collected.columns
        return collected.columns
    }

    /// The authorizer's findings; the authorizer runs synchronously on the connection's thread.
    private final class Collected {
        var columns: [String: Set<String>] = [:]
    }
}
