import BoutiqueDB
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The migration plans the worker opens files with; the tests check their effects.
enum WorkerPlans {
    /// One table every `insert` worker writes to.
    static let sharedRows = BoutiqueMigrationPlan {
        BoutiqueMigration("v1_create_row") { conn in
            try conn.execute("CREATE TABLE row(id INTEGER PRIMARY KEY, tag TEXT NOT NULL, n INTEGER NOT NULL)")
        }
    }

    /// Three migrations that each log the process that ran them and take a moment, so that two processes
    /// opening the same file at once overlap.
    static let racingMigrations = BoutiqueMigrationPlan {
        BoutiqueMigration("m1_create_log") { conn in
            try conn.execute("CREATE TABLE migration_log(migration TEXT NOT NULL, pid INTEGER NOT NULL)")
            try log("m1_create_log", conn)
        }
        BoutiqueMigration("m2_create_item") { conn in
            try conn.execute("CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT)")
            try log("m2_create_item", conn)
        }
        BoutiqueMigration("m3_add_column") { conn in
            try conn.execute("ALTER TABLE item ADD COLUMN price REAL")
            try log("m3_add_column", conn)
        }
    }

    private static func log(_ migration: String, _ conn: DatabaseConnection) throws {
        try conn.execute(
            "INSERT INTO migration_log(migration, pid) VALUES (?, ?)",
            [.text(migration), .integer(Int64(getpid()))])
        Thread.sleep(forTimeInterval: 0.05)
    }
}
