import BoutiqueDB
import Foundation

/// `boutique demo`: a short notes-app story on a database file in the current folder.
enum DemoCommand: Command {
    static let name = "demo"
    static let summary = "run a short notes story on ./boutique-demo.db (or --db PATH)"
    static let help = """
        usage: boutique demo [--db PATH]

        Opens (creating it if needed) the demo database — ./boutique-demo.db unless --db is given —
        makes sure the notes table exists, writes a few notes, and prints what is stored.
        Running it again continues from the existing file.
        """

    static let defaultPath = "boutique-demo.db"

    static func run(_ arguments: inout ArgumentParser) throws {
        let path = try arguments.takeOption("--db") ?? defaultPath
        try arguments.finish()
        let connection = try Connection(path: path)
        defer { connection.close() }
        try connection.setJournalMode(.wal)
        Output.line("Opened \(path)")

        try connection.execute("""
            CREATE TABLE IF NOT EXISTS note (
                id TEXT PRIMARY KEY NOT NULL,
                title TEXT NOT NULL,
                body TEXT NOT NULL,
                updatedAt REAL NOT NULL
            )
            """)
        let existing = try connection.fetchValue("SELECT count(*) FROM note")
        Output.line("Notes already stored: \(existing?.description ?? "0")")

        let titles = ["Buy oat milk", "Call the plumber", "Read about WAL mode"]
        try connection.transaction(.immediate) {
            for title in titles {
                try connection.execute(
                    "INSERT INTO note (id, title, body, updatedAt) VALUES (?, ?, ?, ?)",
                    [.text(UUID().uuidString.lowercased()), .text(title), .text(""),
                     .real(Date().timeIntervalSince1970)])
            }
        }
        Output.line("Inserted \(titles.count) notes in one transaction.\n")

        let rows = try connection.fetchRows(
            "SELECT title, datetime(updatedAt, 'unixepoch') AS updated FROM note ORDER BY updatedAt DESC, title LIMIT 10")
        Output.line(TableRenderer.render(columns: rows.columns, rows: rows.rows))
    }
}
