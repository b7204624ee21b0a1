import BoutiqueDB
import BoutiqueSync
import BoutiqueSyncServer
import Foundation

// The listings of the Sharing article.

public enum Sharing {
    @Table("remindersList")
    struct RemindersList: Sendable {
        @Column(primaryKey: true) let id: UUID
        var title: String
    }

    @Table
    struct Reminder: Sendable {
        @Column(primaryKey: true) let id: UUID
        var listID: UUID
        var title: String
    }

    static let plan = BoutiqueMigrationPlan {
        BoutiqueMigration("v1_reminders") { conn in
            try conn.execute("""
                CREATE TABLE remindersList(id TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL);
                CREATE TABLE reminder(id TEXT PRIMARY KEY NOT NULL,
                    listID TEXT NOT NULL REFERENCES remindersList(id) ON DELETE CASCADE, title TEXT NOT NULL);
                """)
        }
    }

    static func makeServer(store: any SyncStore) async throws -> SyncServer {
        let rules = try SyncRules(
            roots: ["remindersList"],
            follows: ["reminder": "listID", "reminderTag": "reminderID"],
            private: ["tag"])
        let server = SyncServer(store: store, rules: rules)
        for (tenant, problem) in try await server.checkRules() {   // at start: what a tenant's devices lack
            print("tenant \(tenant): \(problem)")
        }
        return server
    }

    /// Ana shares a list with Bob, Bob's device receives it; she unshares and it leaves his device.
    /// Returns the members after sharing and Bob's lists before and after the unshare.
    @MainActor
    public static func shareAList() async throws -> (members: [String], shared: Int, afterUnshare: Int) {
        let store = try await SQLiteSyncStore.open(url: BoutiqueDB.inMemoryURL())
        let server = try await makeServer(store: store)
        let ana = try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: plan)
        let bob = try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: plan)
        let sync = try await BoutiqueSync(database: ana, tables: [RemindersList.self, Reminder.self], server: .inProcess(server, user: "ana"))
        let bobSync = try await BoutiqueSync(database: bob, tables: [RemindersList.self, Reminder.self], server: .inProcess(server, user: "bob"))
        let list = RemindersList(id: UUID(), title: "Groceries")
        try await ana.write { conn in try RemindersList.insert { list }.execute(conn) }
        _ = try await sync.synchronize()

        try await sync.share(RemindersList.self, key: list.id, with: "bob", role: .viewer)
        _ = try await bobSync.synchronize()
        let shared = try await bob.read { conn in try RemindersList.all.fetchCount(conn) }

        try await sync.share(RemindersList.self, key: list.id, with: "bob", role: .editor)
        try await sync.share(RemindersList.self, key: list.id, with: "kid", role: .viewer)
        let members = try await sync.members(of: RemindersList.self, key: list.id)   // ana owner, bob editor, kid viewer (not connected yet)
        try await sync.unshare(RemindersList.self, key: list.id, with: "bob")

        _ = try await bobSync.synchronize()
        let afterUnshare = try await bob.read { conn in try RemindersList.all.fetchCount(conn) }
        await ana.close()
        await bob.close()
        return (members.map(\.description), shared, afterUnshare)
    }

    /// Sharing with someone who may not have signed in yet: the answer says whether they have.
    static func shareWithAnInvitee(_ sync: BoutiqueSync, list: RemindersList, invitee: String, showNote: (String) -> Void) async throws {
        let members = try await sync.share(RemindersList.self, key: list.id, with: invitee, role: .editor)
        if members.first(where: { $0.user == invitee })?.hasConnected == false {
            showNote("\(invitee) will see the list once they sign in on a device")
        }
    }

    /// What an app does with refusals.
    static func watchRefusals(_ sync: BoutiqueSync) async {
        for await refusal in sync.refusals where refusal.reason == .forbidden {
            print("\(refusal.table ?? "a row") was put back: \(refusal.message)")
        }
    }

    /// What an app does with refused work it may want to keep.
    static func offerRefusedWork(_ sync: BoutiqueSync, offerToKeepACopy: (Reminder) -> Void) async {
        for await refusal in sync.refusals where refusal.reason == .forbidden {
            if refusal.table == "reminder", let mine = try? refusal.values(as: Reminder.self) {
                offerToKeepACopy(mine)
            }
        }
    }

    /// What an app does with rows others moved away.
    static func watchDepartures(_ sync: BoutiqueSync, showBanner: (String) -> Void) async {
        for await departure in sync.departures {
            let reminder = try? departure.row(as: Reminder.self)
            showBanner("\(reminder?.title ?? "A reminder") was moved to a list you don't see")
        }
    }

    /// Trusted server code giving a list an owner.
    static func giveOwner(_ server: SyncServer, listID: String) async throws {
        try await server.setMember("ana", role: .owner, table: "remindersList", key: .text(listID), tenant: "acme")
    }
}
