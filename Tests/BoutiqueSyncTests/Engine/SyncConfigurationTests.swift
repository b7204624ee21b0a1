import BoutiqueSync
import BoutiqueSyncServer
import Testing

/// Tables whose rows cannot be told apart across devices are refused when sync is set up, by name and
/// reason, and nothing is changed.
@MainActor @Suite struct SyncConfigurationTests {
    static let plan = BoutiqueMigrationPlan {
        BoutiqueMigration("v1") { conn in
            try conn.execute("""
                CREATE TABLE counter(id INTEGER PRIMARY KEY, label TEXT);
                CREATE TABLE bare(label TEXT);
                CREATE TABLE person(id TEXT PRIMARY KEY NOT NULL, email TEXT UNIQUE);
                CREATE TABLE city(id TEXT PRIMARY KEY NOT NULL, name TEXT);
                CREATE UNIQUE INDEX city_name ON city(name);
                CREATE TABLE pair(a TEXT NOT NULL, b TEXT NOT NULL, PRIMARY KEY(a, b));
                CREATE TABLE numbered(id INTEGER NOT NULL PRIMARY KEY, label TEXT) WITHOUT ROWID;
                CREATE TABLE item(id BLOB PRIMARY KEY NOT NULL, label TEXT) WITHOUT ROWID;
                CREATE TABLE untyped(id PRIMARY KEY NOT NULL, label TEXT);
                """)
        }
    }

    func refusal(_ table: String, on database: DatabaseActor, server: SyncServer) async throws -> (String, String)? {
        do {
            _ = try await BoutiqueSync(database: database, tables: [table], server: .inProcess(server))
            return nil
        } catch let error as BoutiqueError {
            guard case .syncConfiguration(let named, let reason) = error else { return ("?", "\(error)") }
            return (named, reason)
        }
    }

    @Test func tablesWithoutACrossDeviceKeyAreRefused() async throws {
        let server = try await makeServer()
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: Self.plan)
        let cases: [(String, String)] = [
            ("counter", "INTEGER PRIMARY KEY"), ("bare", "no primary key"), ("person", "UNIQUE"), ("city", "UNIQUE"),
            ("pair", "2 columns"), ("numbered", "INTEGER affinity"), ("missing", "no such table"),
            ("untyped", "no declared type"),
        ]
        for (table, reason) in cases {
            let refused = try await refusal(table, on: database, server: server)
            #expect(refused?.0 == table, "\(table) is refused by name")
            #expect(refused?.1.contains(reason) == true, "\(table): \(refused?.1 ?? "accepted")")
        }
        let created = try await database.read { conn in
            try conn.fetchValue("SELECT count(*) FROM sqlite_schema WHERE name LIKE 'boutique_sync%'")
        }
        #expect(created == .integer(0), "a refused configuration changes nothing")
        _ = try await BoutiqueSync(database: database, tables: ["item"], server: .inProcess(server))
        await database.close()
    }

    @Test func modelTypesAndNamesBothWork() async throws {
        let server = try await makeServer()
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let sync = try await BoutiqueSync(database: database, tables: [SyncNote.self, SyncTag.self], server: .inProcess(server))
        try await database.write { conn in
            try SyncNote.insert { SyncNote(id: "n1", title: "From a model", body: nil, rank: 1) }.execute(conn.connection)
        }
        #expect(try await sync.synchronize().pushed == 1)
        await database.close()
    }

    @Test func aChangeLogWithoutFullImagesIsRefused() async throws {
        let server = try await makeServer()
        let database = try await DatabaseActor.open(
            url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan,
            options: DatabaseOptions(changeCapture: ChangeCaptureOptions(mode: .id)))
        await #expect(throws: BoutiqueError.syncConfiguration(
            table: "turso_cdc", reason: "sync pushes from the change log, which must record full images (mode .full), not .id")) {
            _ = try await BoutiqueSync(database: database, tables: ["note"], server: .inProcess(server))
        }
        await database.close()
    }

    @MainActor
    @Test func worksFromTheMainActorWithTheAppFacade() async throws {
        let server = try await makeServer()
        let db = try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let sync = try await BoutiqueSync(database: db, tables: [SyncNote.self], server: .inProcess(server))
        try await db.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES ('n1', 'main')") }
        let report = try await sync.synchronize()
        #expect(report.pushed == 1)
        #expect(sync.status.activity == .idle)
        await db.close()
    }
}
