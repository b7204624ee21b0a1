import BoutiqueDB
import BoutiqueSync
import BoutiqueSyncServer
import Foundation

// The listings of the Sync article.

public enum Sync {
    @Table
    struct Note: Sendable {
        @Column(primaryKey: true) let id: UUID
        var title: String
        var body: String
        var updatedAt: Date = Date()
    }

    @Table
    struct Tag: Sendable {
        @Column(primaryKey: true) let id: UUID
        var noteID: UUID
        var label: String
    }

    enum AppMigrations {
        static let plan = BoutiqueMigrationPlan {
            BoutiqueMigration("v1_create_notes") { conn in
                try conn.execute("""
                    CREATE TABLE note (id TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL, body TEXT NOT NULL,
                                       updatedAt REAL NOT NULL);
                    CREATE TABLE tag (id TEXT PRIMARY KEY NOT NULL, noteID TEXT NOT NULL REFERENCES note(id) ON DELETE CASCADE,
                                      label TEXT NOT NULL);
                    """)
            }
            BoutiqueMigration("v2_note_color") { conn in
                try conn.execute("ALTER TABLE note ADD COLUMN color TEXT")
            }
        }
    }

    /// Two devices and a server in one process: a note written on one arrives on the other.
    @MainActor
    public static func twoDevices() async throws -> (pushed: Int, applied: Int, titles: [String]) {
        let server = SyncServer(store: try await SQLiteSyncStore.open(url: BoutiqueDB.inMemoryURL()))

        let phone = try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: AppMigrations.plan)
        let laptop = try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: AppMigrations.plan)
        let phoneSync = try await BoutiqueSync(database: phone, tables: [Note.self, Tag.self], server: .inProcess(server))
        let laptopSync = try await BoutiqueSync(database: laptop, tables: [Note.self, Tag.self], server: .inProcess(server))

        try await phone.write { conn in
            try Note.insert { Note(id: UUID(), title: "Groceries", body: "oat milk") }.execute(conn)
        }
        let sent = try await phoneSync.synchronize()        // pushes the note
        let received = try await laptopSync.synchronize()   // pulls and applies it
        let titles = try await laptop.read { conn in try Note.all.select { $0.title }.fetchAll(conn) }

        await phone.close()
        await laptop.close()
        return (sent.pushed, received.applied, titles)
    }

    /// Starts background sync, reads its status, stops it.
    @MainActor
    public static func background() async throws -> String {
        let server = SyncServer(store: try await SQLiteSyncStore.open(url: BoutiqueDB.inMemoryURL()))
        let db = try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: AppMigrations.plan)
        let sync = try await BoutiqueSync(database: db, tables: ["note", "tag"], server: .inProcess(server),
                                          options: SyncOptions(pullWait: .seconds(1)))
        sync.start()
        try await db.write { conn in
            try Note.insert { Note(id: UUID(), title: "Plumber", body: "") }.execute(conn)
        }
        let deadline = ContinuousClock.now + .seconds(60)
        while sync.status.pendingCount > 0 || sync.status.lastSync == nil, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        await sync.stop()
        let line = describe(sync.status)
        await db.close()
        return line
    }

    static func describe(_ status: SyncStatus) -> String {
        switch status.activity {
        case .idle: return status.pendingCount == 0 ? "Up to date" : "\(status.pendingCount) changes to send"
        case .pushing: return "Sending…"
        case .pulling: return "Receiving…"
        case .bootstrapping(let progress): return "Downloading \(progress.rowsDone) of \(progress.totalRows.map(String.init) ?? "…")"
        case .offline(let error): return "Offline: \(error)"
        case .refused(let refusal): return "Sync stopped: \(refusal.message)"
        }
    }

    /// Tells the user of each local change sync discarded while merging.
    static func reportLosses(of sync: BoutiqueSync) {
        Task {
            for await loss in sync.losses {
                switch loss.kind {
                case .editBeatenByDelete:       // loss.values: the edited columns
                    notify("Your edit of a note deleted on another device was not kept", restoring: loss.values)
                case .removedWithDeletedParent: // loss.values: the whole row
                    notify("A note you added went with its deleted folder", restoring: loss.values)
                case .editBeatenByConcurrentEdit: // loss.values: your columns another device changed unseen
                    notify("Someone else changed this note at the same time; their version was kept", restoring: loss.values)
                case .moveIntoDeletedParent, .changedWithDeletedParent:  // loss.values: the foreign key you set
                    notify("A note stayed where it was: the folder you moved it to was deleted")
                }
            }
        }
    }

    /// Shows `message`; an app would offer to put `values` back.
    static func notify(_ message: String, restoring values: [String: DatabaseValue] = [:]) {
        _ = (message, values)
    }

    /// A server that keeps a counter from going below zero, whoever wrote last.
    static func serverWithResolver(store: any SyncStore) -> SyncServer {
        SyncServer(store: store, resolver: { conflict in
            guard conflict.table == "stock", case .integer(let count)? = conflict.merged.visibleValues["count"], count < 0
            else { return nil }
            return [SyncColumnValue(name: "count", value: 0)]
        })
    }

    /// A server that refuses pushes from app versions before the fourth migration.
    static func serverRequiringVersion4(store: any SyncStore) -> SyncServer {
        SyncServer(store: store, minimumSchemaVersion: 4)
    }

    /// The options of a device whose tags merge as whole rows.
    static let rowLevelTags = SyncOptions(rowLevelTables: ["tag"])

    /// Drops tombstones every device has pulled past, forgetting devices unseen for 90 days.
    static func collectGarbage(_ server: SyncServer) async throws -> Int {
        let report = try await server.collectGarbage(tenant: "default", inactiveAfterMilliseconds: 90 * 86_400_000)
        return report.tombstonesRemoved
    }

    /// A table the merge rule cannot sync: its key is an integer rowid.
    @MainActor
    public static func refusedTable() async throws -> String {
        let server = SyncServer(store: try await SQLiteSyncStore.open(url: BoutiqueDB.inMemoryURL()))
        let db = try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: BoutiqueMigrationPlan {
            BoutiqueMigration("v1_counter") { conn in try conn.execute("CREATE TABLE counter (id INTEGER PRIMARY KEY, n INTEGER)") }
        })
        var reason = ""
        do {
            _ = try await BoutiqueSync(database: db, tables: ["counter"], server: .inProcess(server))
        } catch let error as BoutiqueError {
            if case .syncConfiguration(let table, let why) = error { reason = "\(table): \(why)" }
        }
        await db.close()
        return reason
    }

    /// A device reaching its server over HTTP.
    @MainActor
    public static func httpDevice(_ db: BoutiqueDB, token: String) async throws -> BoutiqueSync {
        let sync = try await BoutiqueSync(database: db, tables: [Note.self, Tag.self],
                                          server: .http(URL(string: "https://sync.example.com")!, token: token))
        sync.start()
        return sync
    }

    /// A device reaching a server whose certificate a private authority signed, shipped in the app.
    @MainActor
    public static func privateAuthorityDevice(_ db: BoutiqueDB, token: String) async throws -> BoutiqueSync {
        let authority = Bundle.main.url(forResource: "ca", withExtension: "pem")!
        let server: HTTPSyncTransport = .http(URL(string: "https://sync.internal:8443")!, token: token,
                                              trust: try .certificateAuthority(file: authority))
        let sync = try await BoutiqueSync(database: db, tables: [Note.self], server: server)
        return sync
    }

    /// A server that lets only administrators change invoices.
    public static func authorizingServer(_ store: SQLiteSyncStore) -> SyncServer {
        let server = SyncServer(store: store, authorize: { user, change in
            change.table != "invoice" || user.hasPrefix("admin:")
        })
        return server
    }

    /// Prints what the server refuses, as it happens.
    public static func showRefusals(of sync: BoutiqueSync) async {
        for await refusal in sync.refusals where refusal.reason == .forbidden {
            print("The server refused a change to \(refusal.table ?? "?"): \(refusal.message)")
        }
    }

    /// Where an app keeps its sign-in.
    public struct Account: Sendable {
        let issue: @Sendable (String?) async throws -> String

        public init(issue: @escaping @Sendable (String?) async throws -> String) { self.issue = issue }

        /// A new sync token from the app's own backend.
        func freshSyncToken(replacing rejected: String?) async throws -> String { try await issue(rejected) }
    }

    /// A transport that asks the app for a new token when the server says the last one expired.
    public static func renewingTransport(_ url: URL, account: Account) -> HTTPSyncTransport {
        let server: HTTPSyncTransport = .http(url, credentials: { rejected in
            try await account.freshSyncToken(replacing: rejected)
        })
        return server
    }
}
