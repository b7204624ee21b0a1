import BoutiqueSQLite

/// The connection a `read`, `write` or migration closure receives.
///
/// It runs raw SQL with typed errors and hands the underlying ``/BoutiqueSQLite/Connection`` to the query
/// builder. It is only valid inside the closure: it is not `Sendable`, so it cannot be returned or kept.
///
/// ```swift
/// try await db.write { conn in
///     try conn.execute("INSERT INTO note(id, title, body, updatedAt) VALUES (?, ?, ?, ?)",
///                      [.text(UUID().uuidString.lowercased()), "Hello", "", .real(Date().timeIntervalSince1970)])
///     try Note.insert { Note(id: UUID(), title: "New Note", body: "") }.execute(conn.connection)
/// }
/// let titles = try await db.read { conn in
///     try conn.fetchAll("SELECT title FROM note ORDER BY updatedAt DESC").map { $0[0] }
/// }
/// ```
public struct DatabaseConnection {
    /// The SQLite connection, for the query builder (`Note.all.fetchAll(conn.connection)`) and for
    /// anything this type does not wrap. Do not begin, commit or roll back transactions on it.
    public let connection: Connection

    /// `true` inside `read`: statements that would change the database fail with `.readOnly`.
    public let isReadOnly: Bool

    init(_ connection: Connection, isReadOnly: Bool) {
        self.connection = connection
        self.isReadOnly = isReadOnly
    }

    /// Runs one or more statements separated by semicolons, discarding any rows.
    ///
    /// ```swift
    /// try conn.execute("CREATE TABLE tag(name TEXT NOT NULL); CREATE INDEX tag_name ON tag(name)")
    /// ```
    public func execute(_ sql: String) throws {
        do { try connection.execute(sql) } catch { throw BoutiqueError(error) }
    }

    /// Runs one statement with `arguments` bound to its parameters (`?`, `?1`, …), discarding any rows.
    ///
    /// ```swift
    /// try conn.execute("UPDATE note SET title = ? WHERE id = ?", ["Groceries", .text(id)])
    /// ```
    public func execute(_ sql: String, _ arguments: [DatabaseValue]) throws {
        do { try connection.execute(sql, arguments) } catch { throw BoutiqueError(error) }
    }

    /// The rowid of the last row this connection inserted.
    public var lastInsertRowID: Int64 { connection.lastInsertRowID }

    /// The number of rows the last `INSERT`, `UPDATE` or `DELETE` changed.
    public var changes: Int { connection.changes }
}
