import BoutiqueSQLite
import Foundation

/// Where a database lives, as SQLite is told to open it.
///
/// ```swift
/// let location = try DatabaseLocation(url: URL(fileURLWithPath: "/tmp/app.db"))
/// location.path        // "/tmp/app.db"
/// ```
///
/// A plain file URL opens its path; a file URL with a query (`file:notes.db?mode=ro`) is handed to SQLite
/// as a URI; a URL from ``BoutiqueDB/inMemoryURL()`` is a temporary store removed when its last opener
/// closes.
struct DatabaseLocation: Sendable, Hashable {
    /// The URL the caller gave.
    let url: URL
    /// The path or URI passed to `sqlite3_open_v2`.
    let path: String
    /// `.uri` when ``path`` is a URI.
    let extraFlags: OpenFlags
    /// The URI asks for a SQLite in-memory database (`mode=memory` or `vfs=memdb`), which has no WAL.
    let isSQLiteMemory: Bool
    /// The store came from ``BoutiqueDB/inMemoryURL()``: no durability needed, files removed on close.
    let isTemporary: Bool

    init(url: URL) throws(BoutiqueError) {
        guard url.isFileURL else {
            throw .invalidArgument("a database URL must be a file URL, not \(url.absoluteString)")
        }
        self.url = url
        if let query = url.query, !query.isEmpty {
            path = url.absoluteString
            extraFlags = .uri
            let options = query.split(separator: "&").map { $0.lowercased() }
            isSQLiteMemory = options.contains("mode=memory") || options.contains("vfs=memdb")
            isTemporary = false
        } else {
            let filePath = url.standardizedFileURL.path
            guard !filePath.isEmpty, !url.hasDirectoryPath else {
                throw .invalidArgument("a database URL must name a file, not a folder: \(url.path)")
            }
            path = filePath
            extraFlags = []
            isSQLiteMemory = false
            isTemporary = TemporaryStores.isTemporary(path: filePath)
        }
    }

    /// The folder beside the database file that holds its attachments' bytes (`<file>.attachments`), or
    /// nil for a SQLite in-memory database, which has no file to put it beside.
    var attachmentsFolder: String? {
        guard !isSQLiteMemory else { return nil }
        guard extraFlags.isEmpty else { return URL(fileURLWithPath: url.path).standardizedFileURL.path + ".attachments" }
        return path + ".attachments"
    }

    /// What goes when a temporary store is released: SQLite's files and the attachments folder.
    var temporaryFiles: [String] { files + (attachmentsFolder.map { [$0] } ?? []) }

    /// The files SQLite keeps for the database: the database and its journal, WAL and shared-memory files.
    var files: [String] {
        guard extraFlags.isEmpty else { return [] }
        return [path, path + "-journal", path + "-wal", path + "-shm"]
    }
}
