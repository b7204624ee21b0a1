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
        prints what it sees, and finally prints the change log of the story.
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

        let db = try await BoutiqueDB.open(url: url, migrations: AppMigrations.plan)
        let applied = try await db.appliedMigrations.map(\.id)
        Output.line("Opened \(path) — migrations applied: \(applied.joined(separator: ", "))")
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
        await db.close()
    }
}
