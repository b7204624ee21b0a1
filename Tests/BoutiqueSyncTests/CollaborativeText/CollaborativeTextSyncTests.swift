@testable import BoutiqueSync
@testable import BoutiqueSyncServer
import Foundation
import Testing

/// Devices sharing notes whose body is collaborative text, through one server.
struct TextDevices {
    let server: SyncServer
    let devices: [DatabaseActor]
    let syncs: [BoutiqueSync]

    static let options = SyncOptions(collaborativeText: ["note.body"])

    /// `count` devices; the first wrote note n1 with `body`, and every device synced it. The server
    /// keeps its data in `store` (an in-memory SQLite store by default) and lets `authorize` refuse changes.
    static func make(
        count: Int = 2, body: String, store: (any SyncStore)? = nil, authorize: SyncAuthorizer? = nil
    ) async throws -> TextDevices {
        let kept: any SyncStore
        if let store { kept = store } else { kept = try await SQLiteSyncStore.open(url: BoutiqueDB.inMemoryURL()) }
        let server = SyncServer(store: kept, authorize: authorize)
        var devices: [DatabaseActor] = []
        var syncs: [BoutiqueSync] = []
        for _ in 0..<count {
            let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
            devices.append(database)
            // A user for the authorizer to judge.
            let user = authorize == nil ? nil : "user\(devices.count)"
            syncs.append(try await BoutiqueSync(database: database, tables: ["note"], server: .inProcess(server, user: user), options: options))
        }
        try await devices[0].write { conn in
            try conn.execute("INSERT INTO note(id, title, body) VALUES ('n1', 'Plans', ?)", [.text(body)])
        }
        let result = TextDevices(server: server, devices: devices, syncs: syncs)
        try await result.settle()
        return result
    }

    /// Syncs every device twice over: every change reaches everyone.
    func settle() async throws {
        for _ in 0..<2 {
            for sync in syncs { _ = try await sync.synchronize() }
        }
    }

    func body(_ device: Int, key: String = "n1") async throws -> DatabaseValue? {
        try await devices[device].read { conn in
            try conn.fetchOne("SELECT body FROM note WHERE id = ?", [.text(key)])?.values.first
        }
    }

    func write(_ device: Int, _ sql: String, _ arguments: [DatabaseValue] = []) async throws {
        try await devices[device].write { conn in try conn.execute(sql, arguments) }
    }

    func close() async {
        for database in devices { await database.close() }
    }
}

/// A note body named as collaborative text: concurrent edits of it merge character by character on
/// every device and the server, whatever path wrote them; the rest of the row keeps its rules.
@Suite struct CollaborativeTextSyncTests {
    static let shopping = "Milk\nEggs\nBread, the good kind\n"

    @Test(arguments: StoreKind.allCases) func concurrentEditsOfOneBodyBothSurviveOnEveryDevice(_ kind: StoreKind) async throws {
        try await kind.withStore { store in try await Self.concurrentEdits(store: store) }
    }

    static func concurrentEdits(store: any SyncStore) async throws {
        let note = try await TextDevices.make(body: Self.shopping, store: store)
        // Offline, each edits its copy: a adds a line at the top, b fixes a word at the bottom.
        try await note.write(0, "UPDATE note SET body = 'Groceries for Sunday\n' || body WHERE id = 'n1'")
        try await note.write(1, "UPDATE note SET body = replace(body, 'good', 'sourdough') WHERE id = 'n1'")
        try await note.settle()

        let merged = "Groceries for Sunday\nMilk\nEggs\nBread, the sourdough kind\n"
        #expect(try await note.body(0) == .text(merged))
        #expect(try await note.body(1) == .text(merged))
        #expect(await note.syncs[0].takeReportedLosses().isEmpty, "a merged text edit is no loss")
        #expect(await note.syncs[1].takeReportedLosses().isEmpty)
        // The server's state shows the same string, byte for byte.
        let state = try await note.server.store.read(tenant: "default") { store in
            try store.rowState(table: "note", key: .text("n1"))
        }
        #expect(state?.visibleValues(textColumns: ["body"])["body"] == .text(merged))
        await note.close()
    }

    @Test func aNewDeviceReceivesTheTextAndMergesLaterEdits() async throws {
        let note = try await TextDevices.make(body: "one two three")
        try await note.write(0, "UPDATE note SET body = 'one two three four' WHERE id = 'n1'")
        try await note.settle()
        // A third device bootstraps from the snapshot, then edits concurrently with the first.
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let sync = try await BoutiqueSync(database: database, tables: ["note"], server: .inProcess(note.server), options: TextDevices.options)
        _ = try await sync.synchronize()
        let bootstrapped = try await database.read { conn in try conn.fetchOne("SELECT body FROM note WHERE id = 'n1'")?.values.first }
        #expect(bootstrapped == .text("one two three four"))
        try await database.write { conn in try conn.execute("UPDATE note SET body = 'zero one two three four' WHERE id = 'n1'") }
        try await note.write(0, "UPDATE note SET body = 'one two three four five' WHERE id = 'n1'")
        _ = try await sync.synchronize()
        try await note.settle()
        _ = try await sync.synchronize()
        let merged = DatabaseValue.text("zero one two three four five")
        #expect(try await note.body(0) == merged)
        #expect(try await note.body(1) == merged)
        #expect(try await database.read { conn in try conn.fetchOne("SELECT body FROM note WHERE id = 'n1'")?.values.first } == merged)
        await database.close()
        await note.close()
    }

    @Test func otherColumnsKeepLastWriterWinsAndADeleteDeletes() async throws {
        let note = try await TextDevices.make(body: "alpha")
        try await note.write(0, "UPDATE note SET title = 'from a', body = 'alpha beta' WHERE id = 'n1'")
        try await Task.sleep(for: .milliseconds(3))
        try await note.write(1, "UPDATE note SET title = 'from b', body = 'gamma alpha' WHERE id = 'n1'")
        try await note.settle()
        for device in 0..<2 {
            let row = try await note.devices[device].rows("note")
            #expect(row == [["n1", "from b", "gamma alpha beta", "NULL"]])
        }
        let losses = await note.syncs[0].takeReportedLosses()
        #expect(losses.map(\.values) == [["title": .text("from a")]], "the title lost whole; the body merged")

        try await note.write(1, "DELETE FROM note WHERE id = 'n1'")
        try await note.settle()
        #expect(try await note.devices[0].rows("note").isEmpty)
        await note.close()
    }

    @Test func theTextStaysInSyncMetadataAndEveryWritePathIsDiffed() async throws {
        let note = try await TextDevices.make(body: "")
        // The query builder, raw SQL, and NULL (read as empty text).
        try await note.devices[0].write { conn in
            try conn.execute("UPDATE note SET body = ? WHERE id = 'n1'", [.text("typed")])
        }
        try await note.write(1, "UPDATE note SET body = NULL WHERE id = 'n1'")
        try await note.write(1, "INSERT INTO note(id, title, body) VALUES ('n2', 'x', 'second')")
        try await note.settle()
        #expect(try await note.body(0) == .text("typed"))
        #expect(try await note.body(1) == .text("typed"))
        #expect(try await note.body(0, key: "n2") == .text("second"))
        // Nothing of the CRDT in the app's table; the pushed operations are forgotten once acknowledged.
        let kept = try await note.devices[0].read { conn in
            try conn.fetchOne("SELECT count(*) FROM boutique_sync_text_ops")?.values.first
        }
        #expect(kept == .integer(0))
        await note.close()
    }

    @Test func theColumnsMustBeTextColumnsOfSyncedTables() async throws {
        let server = try await makeServer()
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        for (names, fragment) in [
            (["note.rank"], "not TEXT"), (["note.id"], "the key"), (["note.nothing"], "no such column"),
            (["tag.label"], "not in a synced table"), (["body"], "table.column"), (["tag.noteid"], "foreign key"),
        ] {
            let tables = names == ["tag.noteid"] ? ["note", "tag"] : ["note"]
            do {
                _ = try await BoutiqueSync(
                    database: database, tables: tables, server: .inProcess(server), options: SyncOptions(collaborativeText: Set(names)))
                Issue.record("\(names) was accepted")
            } catch let error as BoutiqueError {
                guard case .syncConfiguration(_, let reason) = error else {
                    Issue.record("\(error)")
                    continue
                }
                #expect(reason.contains(fragment), "\(reason)")
            }
        }
        await database.close()
    }

    @Test(arguments: StoreKind.allCases) func aDeviceNamingOtherColumnsThanTheServerKnowsIsRefused(_ kind: StoreKind) async throws {
        try await kind.withStore { store in try await Self.otherColumnsRefused(store: store) }
    }

    static func otherColumnsRefused(store: any SyncStore) async throws {
        let note = try await TextDevices.make(body: "shared", store: store)
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let plain = try await BoutiqueSync(database: database, tables: ["note"], server: .inProcess(note.server))
        await #expect {
            _ = try await plain.synchronize()
        } throws: { error in
            guard let refusal = error as? SyncRefusal else { return false }
            return refusal.reason == .invalid && refusal.message.contains("collaborative text columns body")
        }
        #expect(try await database.rows("note").isEmpty, "nothing pulled by a refused device")
        await database.close()
        await note.close()
    }

    @Test(arguments: StoreKind.allCases) func aRowMovingBetweenSpacesKeepsItsTextHistory(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            var app = try await SharedReminders(store: store)
            let options = SyncOptions(collaborativeText: ["reminder.title"])
            try await app.add("ana", options: options)
            try await app.add("bob", options: options)
            try await app.write("ana", """
                INSERT INTO remindersList(id, title) VALUES ('L1', 'Groceries'), ('L2', 'Private');
                INSERT INTO reminder(id, listID, title) VALUES ('r1', 'L1', 'Milk');
                """)
            _ = try await app.sync("ana").synchronize()
            try await app.sync("ana").share("remindersList", key: .text("L1"), with: "bob", role: .editor)
            try await app.syncAll(["ana", "bob"])
            #expect(try await app.rows("bob", "reminder") == [["r1", "L1", "Milk"]])

            // Ana moves the reminder out of Bob's reach and edits it; Bob's copy goes.
            try await app.write("ana", "UPDATE reminder SET listID = 'L2', title = 'Oat milk' WHERE id = 'r1'")
            try await app.syncAll(["ana", "bob"])
            #expect(try await app.rows("bob", "reminder").isEmpty)
            // Back in, then both edit it offline: the history that moved in merges Bob's edit.
            try await app.write("ana", "UPDATE reminder SET listID = 'L1' WHERE id = 'r1'")
            try await app.syncAll(["ana", "bob"])
            #expect(try await app.rows("bob", "reminder") == [["r1", "L1", "Oat milk"]])
            try await app.write("ana", "UPDATE reminder SET title = 'Oat milk, 2 l' WHERE id = 'r1'")
            try await app.write("bob", "UPDATE reminder SET title = 'Cold oat milk' WHERE id = 'r1'")
            try await app.syncAll(["ana", "bob"])
            #expect(try await app.rows("ana", "reminder") == [["r1", "L1", "Cold oat milk, 2 l"]])
            #expect(try await app.rows("bob", "reminder") == [["r1", "L1", "Cold oat milk, 2 l"]])
            await app.close()
        }
    }
}
