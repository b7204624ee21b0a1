import BoutiqueDB
import BoutiqueSync
import BoutiqueSyncServer
import Foundation

// The listings of the Sync article's "Collaborative text" section.

extension Sync {
    /// Two devices edit one note body offline; after syncing, both edits are on both. Returns the
    /// bodies the phone and the laptop show.
    @MainActor
    public static func collaborativeNote() async throws -> (phone: String, laptop: String) {
        let server = SyncServer(store: try await SQLiteSyncStore.open(url: BoutiqueDB.inMemoryURL()))
        let phone = try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: AppMigrations.plan)
        let laptop = try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: AppMigrations.plan)
        let id = UUID()

        let options = SyncOptions(collaborativeText: ["note.body"])
        let phoneSync = try await BoutiqueSync(database: phone, tables: [Note.self], server: .inProcess(server), options: options)
        let laptopSync = try await BoutiqueSync(database: laptop, tables: [Note.self], server: .inProcess(server), options: options)

        try await phone.write { conn in
            try Note.insert { Note(id: id, title: "Groceries", body: "Milk\nBread, teh good kind") }.execute(conn)
        }
        _ = try await phoneSync.synchronize()
        _ = try await laptopSync.synchronize()

        // Offline, each device writes the whole body, as apps do: one adds a line, the other fixes a word.
        try await phone.write { conn in
            try Note.update { $0.body = "Sunday\nMilk\nBread, teh good kind" }.where { $0.id == id }.execute(conn)
        }
        try await laptop.write { conn in
            try Note.update { $0.body = "Milk\nBread, the good kind" }.where { $0.id == id }.execute(conn)
        }
        for sync in [phoneSync, laptopSync, phoneSync] { _ = try await sync.synchronize() }
        // Both show "Sunday\nMilk\nBread, the good kind".

        let bodies = (
            try await phone.read { conn in try Note.all.select { $0.body }.fetchAll(conn) }.first ?? "",
            try await laptop.read { conn in try Note.all.select { $0.body }.fetchAll(conn) }.first ?? ""
        )
        await phone.close()
        await laptop.close()
        return bodies
    }
}
