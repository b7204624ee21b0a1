import BoutiqueDB

/// A byte budget for the attachments a device holds that its server holds too
/// (``SyncOptions/attachmentCacheBytes``): past it, the least recently used are taken off the device,
/// to be fetched again when asked for.
///
/// ```swift
/// let cache = AttachmentCache(budget: 500 << 20, server: transport.url.absoluteString, database: db,
///                            folder: folder, syncedTables: ["photo"])
/// try await cache.trim(keeping: [photo.image.id])   // after a fetch: never the bytes just fetched
/// ```
///
/// Only bytes the server confirmed to this device (``ConfirmedAttachments``: an upload it checked, a
/// download checked here) count and may leave; bytes waiting to upload, refused by the server, or
/// stored before the device knew the server had them, are never evicted, whatever the budget; nor are
/// bytes a row of a table that does not sync points at (the server may stop keeping them). Use is
/// the stored file's modification time (``AttachmentFolder/markUsed(_:)``), set by every read of the
/// bytes in any process.
struct AttachmentCache: Sendable {
    /// The most bytes of confirmed attachments kept on the device.
    let budget: Int64
    /// The server address confirmations are recorded under.
    let server: String
    let database: DatabaseActor
    let folder: AttachmentFolder
    /// The synced tables, lowercased: what the server keeps, and brings back.
    let syncedTables: Set<String>

    /// The bytes of the confirmed attachments stored on the device: what the budget counts.
    func usedBytes() async throws -> Int64 {
        let (server, folder) = (server, folder)
        return try await database.read { conn in
            try Self.storedConfirmed(server: server, folder: folder, SQLRunner(conn)).stored.reduce(0) { $0 + $1.byteCount }
        }
    }

    /// Evicts the least recently used confirmed attachments until those left fit the budget, never
    /// one of `keeping` (the bytes fetches just brought, even larger than the budget alone), one
    /// queued for upload, or one a row of a table that does not sync points at. Returns the evicted
    /// ids, least recently used first. A file that cannot be removed is passed over.
    ///
    /// It runs in one write transaction: no row of this database starts pointing at bytes in between
    /// (and were one to, the server holds them).
    @discardableResult
    func trim(keeping: Set<String> = []) async throws -> [String] {
        let (budget, server, folder, synced) = (budget, server, folder, syncedTables)
        return try await database.write { conn in
            let sql = SQLRunner(conn)
            let (stored, gone) = try Self.storedConfirmed(server: server, folder: folder, sql)
            try ConfirmedAttachments.forget(gone, server: server, sql)
            var bytes = stored.reduce(0) { $0 + $1.byteCount }
            guard bytes > budget else { return [] }
            let kept = try AttachmentUploadQueue.queued(sql).union(keeping)
                .union(AttachmentReferences.all(in: conn, skipping: synced).map(\.id))
            var evicted: [String] = []
            for use in stored.sorted(by: { ($0.lastUsed, $0.id) < ($1.lastUsed, $1.id) }) where bytes > budget {
                guard !kept.contains(use.id), (try? folder.remove(use.id)) != nil else { continue }
                bytes -= use.byteCount
                evicted.append(use.id)
            }
            try ConfirmedAttachments.forget(evicted, server: server, sql)
            return evicted
        }
    }

    /// The confirmed attachments whose whole bytes are on the device, and the ids of those that are
    /// not (removed since, or damaged).
    private static func storedConfirmed(
        server: String, folder: AttachmentFolder, _ sql: SQLRunner
    ) throws -> (stored: [AttachmentFolder.StoredUse], gone: [String]) {
        var stored: [AttachmentFolder.StoredUse] = []
        var gone: [String] = []
        for (id, byteCount) in try ConfirmedAttachments.all(server: server, sql).sorted(by: { $0.key < $1.key }) {
            if Attachment.isValidID(id), let use = folder.storedUse(of: id), use.byteCount == byteCount {
                stored.append(use)
            } else {
                gone.append(id)
            }
        }
        return (stored, gone)
    }
}
