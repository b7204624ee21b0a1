import BoutiqueSQLite
import Foundation

// The listings of BoutiqueSQLite's landing page.

public enum SQLiteLayer {
    /// Creates a table, inserts in a transaction, reads back; returns the titles and the error of a
    /// duplicate key.
    public static func run(path: String = ":memory:") throws -> (titles: [String], duplicate: String) {
        let connection = try Connection(path: path)
        try connection.setJournalMode(.wal)
        try connection.execute("""
            CREATE TABLE IF NOT EXISTS note (id INTEGER PRIMARY KEY, title TEXT NOT NULL);
            CREATE INDEX IF NOT EXISTS note_title ON note(title);
            """)

        try connection.transaction(.immediate) {
            let insert = try connection.cachedStatement("INSERT INTO note (title) VALUES (?)")
            for title in ["Buy milk", "Call mum"] {
                try insert.bind(title, at: 1)
                try insert.run()
            }
        }

        var titles: [String] = []
        let select = try connection.prepare("SELECT id, title FROM note WHERE title LIKE ?")
        try select.bind("B%", at: 1)
        while try select.step() {
            titles.append("\(select.int64(at: 0)) \(try select.string(at: 1))")
        }

        var duplicate = ""
        do throws(SQLiteError) {
            try connection.execute("INSERT INTO note (id, title) VALUES (1, 'again')")
        } catch {
            if error.extendedCode == .constraintPrimaryKey {
                duplicate = "\(error.message): \(error.sql ?? "")"
            }
        }

        let record = RecordEncoder.encode([.integer(1), .null, .text("x")])    // [0x04, 0x09, 0x00, 0x0F, 0x78]
        let values = try RecordDecoder.decode(record)                          // [.integer(1), .null, .text("x")]
        connection.close()
        return (titles + ["\(values)"], duplicate)
    }
}
