import Foundation

/// A BoutiqueDB database, as the app's UI holds it.
///
/// ```swift
/// let url = try BoutiqueDB.applicationSupportURL(filename: "app.db")
/// let db = try await BoutiqueDB.open(url: url, migrations: AppMigrations.plan)
///
/// try await db.write { conn in
///     try Note.insert { Note(id: UUID(), title: "New Note", body: "") }.execute(conn.connection)
/// }
/// let notes = try await db.read { conn in
///     try Note.all.order { $0.updatedAt.desc() }.fetchAll(conn.connection)
/// }
/// ```
///
/// The class is `@MainActor` so that SwiftUI views and view models can own it, but none of its work
/// happens on the main thread: `read` and `write` hand their closures to the ``DatabaseActor`` (one writer,
/// a pool of readers), which runs them on its own threads. Code without a main actor (servers, tools)
/// can use ``databaseActor`` directly.
@MainActor
public final class BoutiqueDB {
    /// How a database is opened. See ``DatabaseOptions``.
    public typealias Options = DatabaseOptions

    /// The engine doing the work, for code that does not run on the main actor.
    public nonisolated let databaseActor: DatabaseActor

    /// The URL the database was opened with.
    public nonisolated var url: URL { databaseActor.url }

    /// The options the database was opened with.
    public nonisolated var options: DatabaseOptions { databaseActor.options }

    private init(databaseActor: DatabaseActor) {
        self.databaseActor = databaseActor
    }

    /// Opens (creating when needed) the database at `url` and applies the migrations it lacks.
    ///
    /// ```swift
    /// let db = try await BoutiqueDB.open(url: url, migrations: AppMigrations.plan)
    /// let shared = try await BoutiqueDB.open(url: groupURL, migrations: AppMigrations.plan,
    ///                                        options: .init(multiProcess: true))
    /// ```
    ///
    /// Files use WAL with `synchronous = NORMAL` (``DatabaseOptions/Durability/full`` for `FULL`) and
    /// foreign keys on. A file that is not a database, or cannot be written, is refused with
    /// ``BoutiqueError/sql(code:message:)`` and left untouched; see ``DatabaseActor/open(url:migrations:options:)``
    /// for the migration errors.
    public static func open(
        url: URL,
        migrations: BoutiqueMigrationPlan = BoutiqueMigrationPlan(),
        options: Options = .default
    ) async throws -> BoutiqueDB {
        BoutiqueDB(databaseActor: try await DatabaseActor.open(url: url, migrations: migrations, options: options))
    }

    /// Runs `body` in a write transaction (`BEGIN IMMEDIATE`) off the main thread and returns its result.
    ///
    /// ```swift
    /// try await db.write { conn in
    ///     try conn.execute("UPDATE note SET isPinned = 1 WHERE id = ?", [.text(id)])
    /// }
    /// ```
    ///
    /// Commits when `body` returns; rolls back when it throws or the task is cancelled. See
    /// ``DatabaseActor/write(_:)``.
    public nonisolated(nonsending) func write<T: Sendable>(_ body: @Sendable (DatabaseConnection) throws -> T) async throws -> T {
        try await databaseActor.write(body)
    }

    /// Runs `body` in a read transaction (one snapshot) on a reader connection, off the main thread.
    ///
    /// ```swift
    /// let count = try await db.read { conn in try conn.fetchValue("SELECT count(*) FROM note") }
    /// ```
    ///
    /// Reads never wait for a write. See ``DatabaseActor/read(_:)``.
    public nonisolated(nonsending) func read<T: Sendable>(_ body: @Sendable (DatabaseConnection) throws -> T) async throws -> T {
        try await databaseActor.read(body)
    }

    /// Runs `body` on the writer outside any transaction, for `VACUUM` and the like.
    ///
    /// ```swift
    /// try await db.writeWithoutTransaction { conn in try conn.execute("VACUUM") }
    /// ```
    public nonisolated(nonsending) func writeWithoutTransaction<T: Sendable>(
        _ body: @Sendable (DatabaseConnection) throws -> T
    ) async throws -> T {
        try await databaseActor.writeWithoutTransaction(body)
    }

    /// The migrations the database has applied, in order, with their dates.
    ///
    /// ```swift
    /// let ids = try await db.appliedMigrations.map(\.id)
    /// ```
    public var appliedMigrations: [AppliedMigration] {
        get async throws { try await databaseActor.appliedMigrations() }
    }

    /// How the database's tables differ from `expected`; reads only. See ``DatabaseActor/schemaDifferences(expected:)``.
    ///
    /// ```swift
    /// let differences = try await db.schemaDifferences(expected: [noteSchema])
    /// ```
    public func schemaDifferences(expected: [TableSchema]) async throws -> [SchemaDifference] {
        try await databaseActor.schemaDifferences(expected: expected)
    }

    /// Closes the database after the reads in progress; later calls throw ``BoutiqueError/databaseClosed``.
    ///
    /// ```swift
    /// await db.close()
    /// ```
    public func close() async {
        await databaseActor.close()
    }
}
