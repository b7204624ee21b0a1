import BoutiqueDB

/// The seed's migration plan, word for word.
enum AppMigrations {
    static let plan = BoutiqueMigrationPlan {
        BoutiqueMigration("v1_create_notes") { conn in
            try conn.execute("""
                CREATE TABLE note (
                    id TEXT PRIMARY KEY NOT NULL,
                    title TEXT NOT NULL,
                    body TEXT NOT NULL,
                    updatedAt REAL NOT NULL
                )
            """)
        }

        BoutiqueMigration("v2_add_pinned_column") { conn in
            try conn.execute("""
                ALTER TABLE note ADD COLUMN isPinned INTEGER NOT NULL DEFAULT 0
            """)
        }
    }
}

/// A one-table plan for tests that only need somewhere to write.
enum CounterMigrations {
    static let plan = BoutiqueMigrationPlan {
        BoutiqueMigration("v1_create_counter") { conn in
            try conn.execute("CREATE TABLE counter(id INTEGER PRIMARY KEY, label TEXT NOT NULL DEFAULT '')")
        }
    }
}

/// The plan `BoutiqueTestWorker insert` opens files with (the same id and statement).
enum SharedRowMigrations {
    static let plan = BoutiqueMigrationPlan {
        BoutiqueMigration("v1_create_row") { conn in
            try conn.execute("CREATE TABLE row(id INTEGER PRIMARY KEY, tag TEXT NOT NULL, n INTEGER NOT NULL)")
        }
    }
}

extension DatabaseConnection {
    /// The number of rows in `table`.
    func count(_ table: String) throws -> Int64 {
        guard case .integer(let count)? = try fetchValue("SELECT count(*) FROM \(table)") else { return -1 }
        return count
    }
}
