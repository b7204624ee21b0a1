import BoutiqueDB
import Foundation

// The listings of the Sharing a File Between Processes article.

public enum SharingAFileBetweenProcesses {
    @Table
    struct Note: Sendable {
        @Column(primaryKey: true) let id: UUID
        var title: String
        var body: String
        var updatedAt: Date = Date()
    }

    enum AppMigrations {
        static let plan = BoutiqueMigrationPlan {
            BoutiqueMigration("v1_create_notes") { conn in
                try conn.execute(
                    "CREATE TABLE note (id TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL, body TEXT NOT NULL, updatedAt REAL NOT NULL)")
            }
        }
    }

    /// The app's and its extensions' database, in their App Group.
    @MainActor
    static func openShared() async throws -> BoutiqueDB {
        let url = try BoutiqueDB.sharedContainerURL(groupIdentifier: "group.com.example.notes", filename: "notes.db")
        let db = try await BoutiqueDB.open(url: url, migrations: AppMigrations.plan,
                                           options: .init(multiProcess: true))
        return db
    }

    /// Two databases on one file, as two processes hold it: a commit through one reaches the other's
    /// live query, and the other's `checkForExternalChanges()`.
    @MainActor
    public static func twoOpenings() async throws -> (seen: Bool, external: Bool) {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("shared-\(UUID().uuidString).db")
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) } }
        let app = try await BoutiqueDB.open(url: url, migrations: AppMigrations.plan, options: .init(multiProcess: true))
        let widget = try await DatabaseActor.open(url: url, migrations: AppMigrations.plan, options: .init(multiProcess: true))
        let model = NotesModel(db: app)
        try await widget.write { conn in
            try Note.insert { Note(id: UUID(), title: "From the widget", body: "") }.execute(conn)
        }
        let deadline = ContinuousClock.now + .seconds(60)
        while model.notes.isEmpty, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        let external = try await didSomeoneElseWrite(app.databaseActor)
        await app.close()
        await widget.close()
        return (!model.notes.isEmpty, external)
    }

    @MainActor
    final class NotesModel {
        @LiveQuery<Note> var notes: [Note]
        init(db: BoutiqueDB) { _notes = LiveQuery(db, Note.all.order { $0.updatedAt.desc() }) }
    }

    /// Whether another connection committed since the last look.
    static func didSomeoneElseWrite(_ database: DatabaseActor) async throws -> Bool {
        // When the app comes back to the foreground:
        if try await database.checkForExternalChanges() {
            return true   // an extension wrote while the app was in the background
        }
        return false
    }
}
