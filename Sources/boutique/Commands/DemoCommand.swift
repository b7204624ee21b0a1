import BoutiqueDB
import Foundation

/// `boutique demo`: a short notes-app story on a database file in the current folder.
enum DemoCommand: Command {
    static let name = "demo"
    static let summary = "run a short notes story on ./boutique-demo.db (or --db PATH)"
    static let help = """
        usage: boutique demo [--db PATH]

        Opens (creating it if needed) the demo database — ./boutique-demo.db unless --db is given —,
        applies the notes app's migrations, then adds, edits and deletes notes while a live query
        prints what it sees, searches the notes by words (ranked, matches highlighted), and prints the
        change log of the story. It ends with a second device: a sync server in this process on
        127.0.0.1, a second file (PATH's name with -second-device) that finds a pulled note with its
        own search index, both editing one note at once, and the merged note on both; then a list shared between three
        users, a viewer's edit refused and put back, an editor's accepted, and a revocation.
        Running it again continues from the existing file.
        """

    static let defaultPath = "boutique-demo.db"

    @MainActor
    static func run(_ arguments: inout ArgumentParser) async throws {
        let path = try arguments.takeOption("--db") ?? defaultPath
        try arguments.finish()
        let url = URL(fileURLWithPath: path)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw UsageError("\(path) is a directory, not a database file")
        }

        let before = try appliedMigrations(in: path)
        let db = try await BoutiqueDB.open(url: url, migrations: AppMigrations.plan)
        let applied = try await db.appliedMigrations.map(\.id)
        let new = applied.filter { !before.contains($0) }
        Output.line("Opened \(path) — migrations applied this time: \(new.isEmpty ? "none new" : new.joined(separator: ", "))")
        if !before.isEmpty {
            Output.line("(already applied before: \(applied.filter { before.contains($0) }.joined(separator: ", ")))")
        }
        let start = try await db.databaseActor.currentToken()

        let story = DemoStory(db: db)
        try await story.run()

        Output.line("\nChange log of this run (boutique changes \(path) --since \(start.changeID)):")
        let end = try await db.databaseActor.currentToken()
        if end > start {
            for try await transaction in db.changes(since: start) {
                Output.line(ChangeFormatting.text(transaction))
                if transaction.token >= end { break }
            }
        }
        do {
            try await DemoSyncStory(db: db, secondPath: secondDevicePath(for: path)).run()
            try await DemoSharingStory().run()
        } catch {
            await db.close()
            throw error
        }
        await db.close()
    }

    /// `notes.db` → `notes-second-device.db`, beside it.
    static func secondDevicePath(for path: String) -> String {
        let name = path as NSString
        let ext = name.pathExtension
        let base = name.deletingPathExtension + "-second-device"
        return ext.isEmpty ? base : base + "." + ext
    }

    /// The migrations an existing file had applied before this run; none for a new file.
    static func appliedMigrations(in path: String) throws -> Set<String> {
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        let connection = try DatabaseFile.openForReading(path)
        defer { connection.close() }
        let exists = try connection.fetchValue(
            "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'boutique_migrations'")
        guard exists == .integer(1) else { return [] }
        let rows = try connection.fetchRows("SELECT id FROM boutique_migrations").rows
        return Set(rows.compactMap { row in
            if case .text(let id)? = row.first { id } else { nil }
        })
    }
}
