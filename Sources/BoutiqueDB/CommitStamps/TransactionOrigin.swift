/// Where a write transaction's changes come from: the app itself, or another replica of the data.
///
/// ```swift
/// try await database.write(origin: .remote) { conn in
///     try conn.execute("UPDATE note SET title = ? WHERE id = ?", [.text("From the server"), .text(id)])
/// }
/// ```
///
/// A sync engine applies what it pulls as `.remote`: such a transaction is logged in `turso_cdc` like
/// any other (live queries and the change feed see it), but it is not stamped as a local change and a
/// sync engine never sends it back. Everything else is `.local`, the default of every write.
public enum TransactionOrigin: Sendable, Hashable {
    /// The app's own change: stamped at commit when the file is set up for sync, and pushed.
    case local
    /// Changes applied from another replica (a server): never stamped as local, never pushed back.
    case remote
}
