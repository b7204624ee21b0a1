@testable import BoutiqueDB
import BoutiqueSQLite
import CSQLite
import Foundation

/// Copies of a database to replay its change log onto.
enum ChangeLogCopy {
    /// A copy of the database as one read sees it, with the token of that read: SQLite's online backup
    /// copies the pages inside the read's snapshot, so the copy and the token agree exactly.
    static func take(_ database: DatabaseActor, to destination: URL) async throws -> (token: Int64, url: URL) {
        let token = try await database.read { conn in
            let token = try ChangeLogReader.latestToken(on: conn.connection).changeID
            let target = try Connection(path: destination.path)
            defer { target.close() }
            let backup = sqlite3_backup_init(try target.requireHandle(), "main", try conn.connection.requireHandle(), "main")
            guard let backup else { throw ChangeLogReplayer.Failure(description: "the backup did not start") }
            let stepped = sqlite3_backup_step(backup, -1)
            let finished = sqlite3_backup_finish(backup)
            guard stepped == SQLITE_DONE, finished == SQLITE_OK else {
                throw ChangeLogReplayer.Failure(description: "the backup failed: \(stepped) \(finished)")
            }
            return token
        }
        return (token, destination)
    }
}
