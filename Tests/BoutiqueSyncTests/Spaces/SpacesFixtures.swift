import BoutiqueSync
import BoutiqueSyncServer
import Foundation

/// Reminders lists shared between users: a list is a space, its reminders follow it, a reminder's tag
/// links follow the reminder, and tags are private to their writer. Table names keep their capitals,
/// as an app's `@Table` types name them.
enum SpacesSchema {
    static let plan = BoutiqueMigrationPlan {
        BoutiqueMigration("v1_reminders") { conn in
            try conn.execute("""
                CREATE TABLE remindersList(id TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL DEFAULT '');
                CREATE TABLE reminder(id TEXT PRIMARY KEY NOT NULL,
                    listID TEXT NOT NULL REFERENCES remindersList(id) ON DELETE CASCADE, title TEXT NOT NULL DEFAULT '');
                CREATE TABLE tag(id TEXT PRIMARY KEY NOT NULL, name TEXT NOT NULL DEFAULT '');
                CREATE TABLE reminderTag(id TEXT PRIMARY KEY NOT NULL,
                    reminderID TEXT NOT NULL REFERENCES reminder(id) ON DELETE CASCADE,
                    tagID TEXT NOT NULL REFERENCES tag(id) ON DELETE CASCADE);
                """)
        }
    }

    static let tables = ["remindersList", "reminder", "tag", "reminderTag"]

    static let rulesJSON = #"{"roots": ["remindersList"], "follows": {"reminder": "listID", "reminderTag": "reminderID"}, "private": ["tag"]}"#

    static func rules() throws -> SyncRules {
        try JSONDecoder().decode(SyncRules.self, from: Data(rulesJSON.utf8))
    }
}

/// A server with the reminders rules, and one device per user.
struct SharedReminders {
    let server: SyncServer
    private(set) var devices: [String: (database: DatabaseActor, sync: BoutiqueSync)] = [:]

    init(store: (any SyncStore)? = nil, rules: SyncRules? = nil, limits: SyncServerLimits = SyncServerLimits()) async throws {
        let chosen: any SyncStore
        if let store { chosen = store } else { chosen = try await SQLiteSyncStore.open(url: BoutiqueDB.inMemoryURL()) }
        server = SyncServer(store: chosen, rules: try rules ?? SpacesSchema.rules(), limits: limits)
    }

    /// Opens a device for `user`.
    mutating func add(_ user: String, options: SyncOptions = SyncOptions()) async throws {
        try await add(user, through: .inProcess(server, user: user), options: options)
    }

    /// Opens a device for `user` that reaches the server through `transport`.
    mutating func add(_ user: String, through transport: some SyncTransport, options: SyncOptions = SyncOptions()) async throws {
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SpacesSchema.plan)
        let sync = try await BoutiqueSync(database: database, tables: SpacesSchema.tables, server: transport, options: options)
        devices[user] = (database, sync)
    }

    func database(_ user: String) -> DatabaseActor { devices[user]!.database }
    func sync(_ user: String) -> BoutiqueSync { devices[user]!.sync }

    /// Runs SQL on a user's device.
    func write(_ user: String, _ sql: String) async throws {
        try await database(user).write { conn in try conn.execute(sql) }
    }

    /// Synchronizes the users' devices in order, twice: what one pushed, the others pull.
    func syncAll(_ users: [String]) async throws {
        for _ in 0..<2 {
            for user in users { _ = try await sync(user).synchronize() }
        }
    }

    /// A table's rows on a user's device, as text.
    func rows(_ user: String, _ table: String) async throws -> [[String]] {
        try await database(user).rows(table)
    }

    /// What sync keeps of a table's rows on a user's device (states), by key.
    func states(_ user: String, _ table: String) async throws -> [String] {
        try await database(user).read { conn in
            try conn.fetchAll("SELECT key FROM boutique_sync_row WHERE tbl = ? ORDER BY key", [.text(table.lowercased())])
                .map { $0.values[0].description }
        }
    }

    func close() async {
        for device in devices.values { await device.database.close() }
    }
}
