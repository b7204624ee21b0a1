@testable import BoutiqueDB
import Foundation

/// One `turso_cdc` row with its records decoded, for assertions.
struct LoggedChange: Equatable, CustomStringConvertible {
    var id: Int64
    var transaction: Int64
    var type: Int64
    var table: String?
    var rowID: DatabaseValue
    var before: [DatabaseValue]?
    var after: [DatabaseValue]?
    var updates: [DatabaseValue]?

    var description: String {
        "#\(id) txn \(transaction) type \(type) \(table ?? "-") id \(rowID) before \(before.map(String.init(describing:)) ?? "nil") after \(after.map(String.init(describing:)) ?? "nil") updates \(updates.map(String.init(describing:)) ?? "nil")"
    }

    /// The flags half of an `updates` record.
    var updatedFlags: [Int64]? {
        guard let updates else { return nil }
        return updates.prefix(updates.count / 2).map { if case .integer(let flag) = $0 { flag } else { -1 } }
    }
}

extension DatabaseConnection {
    /// Every row of the change log, in order, with records decoded.
    func loggedChanges(after changeID: Int64 = 0) throws -> [LoggedChange] {
        try fetchAll(
            "SELECT change_id, change_txn_id, change_type, table_name, id, \"before\", \"after\", updates FROM turso_cdc WHERE change_id > ? ORDER BY change_id",
            [.integer(changeID)]
        ).map { row in
            func record(_ value: DatabaseValue) throws -> [DatabaseValue]? {
                guard case .blob(let bytes) = value else { return nil }
                return try RecordDecoder.decode(bytes)
            }
            func integer(_ value: DatabaseValue) -> Int64 { if case .integer(let v) = value { v } else { -99 } }
            let table: String? = if case .text(let name) = row[3] { name } else { nil }
            return LoggedChange(
                id: integer(row[0]), transaction: integer(row[1]), type: integer(row[2]), table: table, rowID: row[4],
                before: try record(row[5]), after: try record(row[6]), updates: try record(row[7]))
        }
    }
}

extension DatabaseActor {
    /// The change log's rows after `changeID`.
    func loggedChanges(after changeID: Int64 = 0) async throws -> [LoggedChange] {
        try await read { conn in try conn.loggedChanges(after: changeID) }
    }

    /// The change log's rows for user tables only (no schema changes, no COMMIT rows, no migration history).
    func loggedRowChanges(after changeID: Int64 = 0) async throws -> [LoggedChange] {
        try await loggedChanges(after: changeID).filter {
            $0.type != 2 && $0.table != "sqlite_schema" && $0.table != "boutique_migrations"
        }
    }

    /// The id of the last row of the change log.
    func lastChangeID() async throws -> Int64 {
        try await read { conn in
            if case .integer(let id)? = try conn.fetchValue("SELECT max(change_id) FROM turso_cdc") { return id }
            return 0
        }
    }
}

/// A plan with an INTEGER PRIMARY KEY table and a TEXT-keyed one.
enum CaptureMigrations {
    static let plan = BoutiqueMigrationPlan {
        BoutiqueMigration("v1_items") { conn in
            try conn.execute("CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT, price REAL, data BLOB)")
            try conn.execute("CREATE TABLE tag(name TEXT PRIMARY KEY, weight INTEGER) ")
        }
    }
}
