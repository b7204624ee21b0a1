import BoutiqueDB
import BoutiqueSync
import BoutiqueSyncServer
import Foundation

/// The demo's sharing scene: a server with sync rules in this process, and three users' devices (in
/// memory). Ana shares a list with Bob as a viewer and with Cleo as an editor; Bob's edit is refused
/// and put back, Cleo's reaches everyone; then Ana stops sharing with Bob and the list leaves his
/// device.
@MainActor
struct DemoSharingStory {
    func run() async throws {
        let store = try await SQLiteSyncStore.open(url: BoutiqueDB.inMemoryURL())
        let rules = try JSONDecoder().decode(SyncRules.self, from: Data(SharingMigrations.rulesJSON.utf8))
        let server = SyncServer(store: store, rules: rules)
        var devices: [(user: String, db: BoutiqueDB)] = []
        do {
            for user in ["ana", "bob", "cleo"] {
                devices.append((user, try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: SharingMigrations.plan)))
            }
            try await tell(server: server, devices: devices)
        } catch {
            for device in devices { await device.db.close() }
            await store.close()
            throw error
        }
        for device in devices { await device.db.close() }
        await store.close()
    }

    private func tell(server: SyncServer, devices: [(user: String, db: BoutiqueDB)]) async throws {
        Output.line("\nSharing: a server with the rules \(SharingMigrations.rulesJSON), and the devices of Ana, Bob and Cleo.")
        var syncs: [String: BoutiqueSync] = [:]
        var databases: [String: BoutiqueDB] = [:]
        for (user, db) in devices {
            databases[user] = db
            syncs[user] = try await BoutiqueSync(database: db, tables: [RemindersList.self, Reminder.self], server: .inProcess(server, user: user))
        }
        let ana = databases["ana"]!, bob = databases["bob"]!
        let list = RemindersList(id: UUID(), title: "Groceries")
        let milk = Reminder(id: UUID(), listID: list.id, title: "Milk")
        try await ana.write { conn in
            try RemindersList.insert { list }.execute(conn.connection)
            try Reminder.insert { milk }.execute(conn.connection)
            try Reminder.insert { Reminder(id: UUID(), listID: list.id, title: "Eggs") }.execute(conn.connection)
        }
        _ = try await syncs["ana"]!.synchronize()
        try await syncs["ana"]!.share(RemindersList.self, key: list.id, with: "bob", role: .viewer)
        let members = try await syncs["ana"]!.share(RemindersList.self, key: list.id, with: "cleo", role: .editor)
        Output.line("Ana shared \"Groceries\": \(members.map(\.description).joined(separator: ", ")).")
        for user in ["bob", "cleo"] { _ = try await syncs[user]!.synchronize() }
        try await show("Bob synced", bob)

        try await bob.write { conn in
            try Reminder.update { $0.title = "Oat milk" }.where { $0.id == milk.id }.execute(conn.connection)
        }
        _ = try await syncs["bob"]!.synchronize()
        if let refusal = syncs["bob"]!.status.lastRefusal {
            Output.line("\nBob, a viewer, renamed Milk; the server refused it: \(refusal.message).")
        }
        try await show("Bob's device put the server's version back", bob)

        try await databases["cleo"]!.write { conn in
            try Reminder.update { $0.title = "Whole milk" }.where { $0.id == milk.id }.execute(conn.connection)
        }
        for user in ["cleo", "ana", "bob"] { _ = try await syncs[user]!.synchronize() }
        try await show("\nCleo, an editor, renamed it: accepted; after syncing, Ana has", ana)
        try await show("and Bob has", bob)

        try await syncs["ana"]!.unshare(RemindersList.self, key: list.id, with: "bob")
        _ = try await syncs["bob"]!.synchronize()
        let left = try await bob.read { conn in try RemindersList.all.fetchAll(conn.connection) }
        Output.line("\nAna stopped sharing with Bob; after his next sync his device holds \(Plural.count(left.count, "list")).")
    }

    private func show(_ title: String, _ db: BoutiqueDB) async throws {
        let reminders = try await db.read { conn in try Reminder.order { $0.title }.fetchAll(conn.connection) }
        Output.line("\(title): \(reminders.map(\.title).joined(separator: ", ")).")
    }
}
