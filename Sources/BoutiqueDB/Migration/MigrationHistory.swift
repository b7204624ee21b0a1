import BoutiqueSQLite
import Foundation

/// The table where a database records the migrations it has applied.
///
/// ```sql
/// CREATE TABLE boutique_migrations(id TEXT PRIMARY KEY NOT NULL, appliedAt REAL NOT NULL)
/// ```
///
/// Rows are only ever appended, so rowid order is the order migrations were applied in. `appliedAt` is
/// seconds since 1970, like every BoutiqueDB date.
enum MigrationHistory {
    static let tableName = "boutique_migrations"

    /// The applied ids in the order they were applied; empty when the table does not exist yet.
    static func appliedIDs(_ connection: Connection) throws(SQLiteError) -> [String] {
        try applied(connection).map(\.id)
    }

    /// The applied migrations with their dates, in the order they were applied.
    static func applied(_ connection: Connection) throws(SQLiteError) -> [AppliedMigration] {
        guard try exists(connection) else { return [] }
        let rows = try connection.fetchRows("SELECT id, appliedAt FROM \(tableName) ORDER BY rowid").rows
        return rows.map { row in
            let id = row.first.map(String.init(describing:)) ?? ""
            let seconds: Double =
                switch row.count > 1 ? row[1] : .null {
                case .real(let value): value
                case .integer(let value): Double(value)
                default: 0
                }
            return AppliedMigration(id: id, appliedAt: Date(timeIntervalSince1970: seconds))
        }
    }

    /// Creates the table inside the current transaction, the first time a migration is applied.
    static func createTableIfNeeded(_ connection: Connection) throws(SQLiteError) {
        try connection.execute(
            "CREATE TABLE IF NOT EXISTS \(tableName)(id TEXT PRIMARY KEY NOT NULL, appliedAt REAL NOT NULL)")
    }

    /// Records `id` as applied now, in the migration's own transaction.
    static func record(_ id: String, _ connection: Connection) throws(SQLiteError) {
        try connection.execute(
            "INSERT INTO \(tableName)(id, appliedAt) VALUES (?, ?)",
            [.text(id), .real(Date().timeIntervalSince1970)])
    }

    /// Refuses a history that is not a prefix of the plan: an id the plan does not know, or ids in
    /// another order.
    static func validate(applied: [String], planned: [String]) throws(BoutiqueError) {
        guard applied.count <= planned.count, zip(applied, planned).allSatisfy({ $0 == $1 }) else {
            throw .migrationHistoryMismatch(applied: applied, planned: planned)
        }
    }

    /// A description of the foreign-key violations in the database, `nil` when there are none.
    static func foreignKeyViolations(_ connection: Connection) throws(SQLiteError) -> String? {
        let rows = try connection.fetchRows("PRAGMA foreign_key_check").rows
        guard !rows.isEmpty else { return nil }
        let shown = rows.prefix(5).map { row -> String in
            let table = row.first.map(String.init(describing:)) ?? "?"
            let rowID = row.count > 1 ? String(describing: row[1]) : "?"
            let parent = row.count > 2 ? String(describing: row[2]) : "?"
            return "\(table) row \(rowID) references a missing \(parent) row"
        }
        let more = rows.count > shown.count ? " (and \(rows.count - shown.count) more)" : ""
        return "foreign key violation: " + shown.joined(separator: "; ") + more
    }

    private static func exists(_ connection: Connection) throws(SQLiteError) -> Bool {
        try connection.fetchValue(
            "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?", [.text(tableName)]) != nil
    }
}
