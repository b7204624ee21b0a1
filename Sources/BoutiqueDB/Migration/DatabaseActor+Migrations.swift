import BoutiqueSQLite

extension DatabaseActor {
    /// The migrations the database has applied, in order, with their dates.
    ///
    /// ```swift
    /// let ids = try await database.appliedMigrations().map(\.id)   // ["v1_create_notes", "v2_add_pinned_column"]
    /// ```
    public nonisolated(nonsending) func appliedMigrations() async throws -> [AppliedMigration] {
        do {
            return try await read { conn in
                do throws(SQLiteError) { return try MigrationHistory.applied(conn.connection) } catch { throw BoutiqueError(error) }
            }
        } catch {
            throw BoutiqueError.library(error, writing: false)
        }
    }

    /// Checks, under the write lock and without changing anything, that the file can be written and that
    /// its migration history is a prefix of `plan`.
    ///
    /// Taking the write lock (`BEGIN IMMEDIATE`) is what finds a read-only file before anything is
    /// written to it. An empty plan skips the history check: tools that open any file pass none.
    func checkMigrationHistory(against plan: BoutiqueMigrationPlan) throws(BoutiqueError) {
        let connection = try requireWriter()
        do {
            try connection.beginTransaction(.immediate)
            defer { try? connection.rollback() }
            guard !plan.migrations.isEmpty else { return }
            try MigrationHistory.validate(applied: MigrationHistory.appliedIDs(connection), planned: plan.ids)
        } catch let error as SQLiteError {
            throw BoutiqueError(writing: error)
        } catch {
            throw BoutiqueError.library(error, writing: true)
        }
    }

    /// Applies the migrations of `plan` the database lacks, one transaction each.
    ///
    /// Every transaction takes the write lock before it reads the history, so two processes opening the
    /// same file at once apply each migration exactly once: the second sees the first's record. Foreign
    /// keys are not enforced while a migration runs (so tables can be rebuilt) but checked before it
    /// commits; a violation fails the migration.
    func runMigrations(_ plan: BoutiqueMigrationPlan) throws(BoutiqueError) {
        guard !plan.migrations.isEmpty else { return }
        let writer = try requireWriter()
        do {
            try writer.setForeignKeysEnabled(false)
        } catch {
            throw BoutiqueError(error)
        }
        while true {
            var attempted: String?
            do {
                let finished = try withWriteTransaction { connection -> Bool in
                    let applied = try MigrationHistory.appliedIDs(connection)
                    try MigrationHistory.validate(applied: applied, planned: plan.ids)
                    guard applied.count < plan.migrations.count else { return true }
                    let migration = plan.migrations[applied.count]
                    attempted = migration.id
                    try MigrationHistory.createTableIfNeeded(connection)
                    try migration.body(DatabaseConnection(connection, isReadOnly: false))
                    if let violations = try MigrationHistory.foreignKeyViolations(connection) {
                        throw BoutiqueError.migrationFailed(id: migration.id, message: violations)
                    }
                    try MigrationHistory.record(migration.id, connection)
                    return false
                }
                if finished { return }
            } catch {
                throw Self.migrationError(error, attempted: attempted)
            }
        }
    }

    /// The error a failed migration step reports: ``BoutiqueError/migrationFailed(id:message:)`` naming the
    /// migration once one was started, the library's own error before that.
    private static func migrationError(_ error: any Error, attempted: String?) -> BoutiqueError {
        let surfaced = BoutiqueError.surfacing(error, writing: true)
        if let boutique = surfaced as? BoutiqueError {
            switch boutique {
            case .migrationFailed, .migrationHistoryMismatch, .cancelled, .databaseClosed: return boutique
            default: break
            }
            guard let attempted else { return boutique }
            return .migrationFailed(id: attempted, message: boutique.description)
        }
        return .migrationFailed(id: attempted ?? "?", message: String(describing: surfaced))
    }
}
