import BoutiqueSyncServer
import Foundation

/// `boutique serve`'s attachment flags: `--attachments DIR --max-attachment-bytes N --attachment-quota BYTES`.
///
/// ```swift
/// let attachments = try ServeAttachments(&arguments)
/// let store = try attachments.store(beside: location, opened: store)   // sync.db.attachments/ for --store sync.db
/// ```
struct ServeAttachments {
    var directory: String?
    var maximumBytes: Int?
    var quotaBytes: Int?

    init(_ arguments: inout ArgumentParser) throws {
        directory = try arguments.takeOption("--attachments")
        maximumBytes = try ServeLimits.count(&arguments, "--max-attachment-bytes")
        quotaBytes = try ServeLimits.count(&arguments, "--attachment-quota")
    }

    /// The store of attachments: in `--attachments DIR`, or by default beside a SQLite store
    /// (`FILE.attachments/`, or `DIR/attachments/` for `--store-dir DIR`), and in the database of a
    /// PostgreSQL store (`opened`), where every instance sees them.
    func store(beside location: ServerStore.Location, opened: any SyncStore) throws -> any SyncAttachmentStore {
        let folder: String
        switch (directory, location) {
        case (let named?, _): folder = named
        case (nil, .file(let path)): folder = path + ".attachments"
        case (nil, .directory(let path)): folder = URL(fileURLWithPath: path).appendingPathComponent("attachments").path
        case (nil, .postgres):
            guard let postgres = opened as? PostgreSQLSyncStore else {
                throw UsageError("the store opened for --postgres is not a PostgreSQL store")
            }
            return try PostgreSQLAttachmentStore(
                store: postgres, maximumAttachmentBytes: maximumBytes.map(Int64.init), tenantQuotaBytes: quotaBytes.map(Int64.init))
        }
        return try FolderAttachmentStore(
            directory: URL(fileURLWithPath: folder, isDirectory: true), maximumAttachmentBytes: maximumBytes.map(Int64.init),
            tenantQuotaBytes: quotaBytes.map(Int64.init))
    }
}
