import BoutiqueDB
import BoutiqueSyncServer
import Foundation

/// A consistent copy of a SQLite sync store, made online: SQLite's `VACUUM INTO` reads the store in
/// one read transaction (a snapshot, which in WAL mode blocks no writer) and writes a compact copy.
enum StoreBackup {
    /// Copies the store at `store` to `out` and returns the copy's size in bytes. An existing `out` is
    /// replaced only when `replacing`; the copy is written beside it and moved into place when whole
    /// and checked, so that `out` is never half written.
    static func copy(store: String, to out: String, replacing: Bool) throws -> Int {
        let source = try DatabaseFile.openForReading(store)
        defer { source.close() }
        let isStore = try source.fetchValue(
            "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'boutique_sync_server_identity'")
        guard case .integer(1)? = isStore else {
            throw BoutiqueError.invalidArgument("\(store) is not a sync server's store (one `boutique serve --store FILE` keeps)")
        }
        // A --store-dir directory's files each hold a part: its main file the tenants' list, a tenant's
        // file one tenant. A copy of one alone would be served as the whole server.
        let isDirectoryPart = try source.fetchValue(
            "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'boutique_sync_server_tenant_file'")
        let underTenants = URL(fileURLWithPath: store).standardizedFileURL.deletingLastPathComponent().lastPathComponent == "tenants"
        if case .integer(1)? = isDirectoryPart {
            throw BoutiqueError.invalidArgument(
                "\(store) is the main file of a `boutique serve --store-dir` directory: copy the whole directory with the server stopped")
        }
        if underTenants {
            throw BoutiqueError.invalidArgument(
                "\(store) is one tenant's file of a `boutique serve --store-dir` directory: copy the whole directory with the server stopped")
        }
        let destination = URL(fileURLWithPath: out).standardizedFileURL
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: destination.path, isDirectory: &isDirectory) {
            guard !isDirectory.boolValue else { throw BoutiqueError.invalidArgument("\(out) is a directory, not a file to copy into") }
            guard replacing else { throw BoutiqueError.invalidArgument("\(out) exists: --force replaces it") }
            guard destination.resolvingSymlinksInPath() != URL(fileURLWithPath: store).standardizedFileURL.resolvingSymlinksInPath() else {
                throw BoutiqueError.invalidArgument("\(out) is the store itself")
            }
        }
        // Beside the destination, so that the move into place is a rename on one file system.
        let partial = destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).partial-\(UUID().uuidString.lowercased())")
        // The copy holds every tenant's data: its owner's alone, as the store is.
        let previousMask = umask(0o077)
        defer {
            umask(previousMask)
            try? FileManager.default.removeItem(at: partial)
        }
        // A writer's checkpoint may hold the store's lock for a moment.
        try source.setBusyTimeout(milliseconds: 20_000)
        try source.execute("VACUUM INTO ?", [.text(partial.path)])
        try startNewHistory(partial)
        try check(partial, of: store)
        let handle = try FileHandle(forUpdating: partial)
        try handle.synchronize()
        try handle.close()
        if replacing {
            guard rename(partial.path, destination.path) == 0 else { throw failure("cannot move the copy to \(out)") }
        } else {
            // `link` refuses a destination made since the check above, where a rename would replace it.
            guard link(partial.path, destination.path) == 0 else {
                throw errno == EEXIST ? BoutiqueError.invalidArgument("\(out) exists: --force replaces it") : failure("cannot write \(out)")
            }
        }
        return (try? FileManager.default.attributesOfItem(atPath: destination.path))?[.size] as? Int ?? 0
    }

    /// Gives the copy a history of its own (``SyncServerID/history``): once served, it logs other
    /// changes than the original at the positions past the copy, and a device that pulled those
    /// positions from the original must not pull on from them. A store from before histories gets
    /// one when it is served.
    private static func startNewHistory(_ copy: URL) throws {
        let connection = try Connection(path: copy.path, flags: [.readWrite, .noMutex])
        defer { connection.close() }
        let hasHistory = try connection.fetchValue(
            "SELECT count(*) FROM pragma_table_info('boutique_sync_server_identity') WHERE name = 'history'")
        guard case .integer(1)? = hasHistory else { return }
        try connection.execute(SQLiteSyncStoreSchema.newHistory)
    }

    /// Refuses a copy SQLite does not find whole.
    private static func check(_ copy: URL, of store: String) throws {
        let connection = try Connection(path: copy.path, flags: [.readOnly, .noMutex])
        defer { connection.close() }
        let result = try connection.fetchValue("PRAGMA quick_check")
        guard case .text("ok")? = result else {
            throw BoutiqueError.invalidArgument("the copy of \(store) failed SQLite's check: \(result?.description ?? "no answer")")
        }
    }

    private static func failure(_ what: String) -> BoutiqueError {
        .invalidArgument("\(what): \(String(cString: strerror(errno)))")
    }
}
