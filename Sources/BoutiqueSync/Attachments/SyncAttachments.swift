import Foundation

/// The bytes of a synced database's attachments, moving to and from the sync server: ``BoutiqueSync/attachments``.
///
/// ```swift
/// let sync = try await BoutiqueSync(database: db, tables: [Photo.self], server: .http(url, token: token))
/// try await sync.attachments.fetch(photo.image)            // returns once the bytes are here, checked
/// let url = try await db.attachments.fileURL(for: photo.image)
/// for await p in sync.attachments.progress { print(p.id, p.direction, p.bytesDone, p.byteCount) }
/// ```
///
/// Rows sync as any rows; their attachments' bytes travel apart. A row written to a column that holds
/// attachments (recorded from the app's models when sync is set up, see ``/BoutiqueDB/Attachment``)
/// queues its attachment in the same transaction, in whatever process writes it; after its pushes, sync
/// uploads what is queued (``uploadWaiting()``), in pieces, from the offset the server holds, so that a
/// killed app or a lost connection resumes where it stopped. An entry leaves the queue only once the
/// server has checked the bytes whole. ``SyncStatus/attachmentsWaitingToUpload`` counts the queue.
/// ``BoutiqueSync/synchronize()`` uploads after its push and pull (and, with an eager
/// ``SyncOptions/attachments`` policy, fetches); a transfer never makes it fail, nor holds the rows
/// back (``SyncStatus/attachmentsNotFetched`` counts what an eager round could not fetch).
/// An attachment the server refuses (larger than it takes, past the tenant's quota, not the id's
/// bytes) is kept, marked refused, and the others go on: ``refused()`` lists them with the server's
/// ``SyncRefusal``, ``SyncStatus/attachmentsRefused`` counts them. One refused as too large is sent
/// again an hour later (``refusalRetryInterval``), as long as it is refused: the tenant's quota frees
/// as the server's housekeeping removes bytes no row points at, and a limit may rise. Bytes that are
/// not the id's are not sent again. One that could not be sent for now (no answer, a 5xx, a server
/// that keeps no attachments) waits for the next round.
///
/// Attachments move over an HTTP transport (``HTTPSyncTransport``) to a server that keeps them; with
/// another transport, ``fetch(_:waitingForUpload:)`` and ``uploadWaiting()`` throw
/// ``/BoutiqueDB/BoutiqueError/invalidArgument(_:)``.
public final class SyncAttachments: Sendable {
    private let database: DatabaseActor
    private let transfer: AttachmentTransfer?
    private let events = SyncEventChannel<AttachmentProgress>(keptLimit: 0)
    /// How many attachments wait to be uploaded, and how many the server refused, as last counted.
    private let counts = Lock((waiting: 0, refused: 0))
    /// How many attachments the last eager round could not fetch.
    private let notFetched = Lock(0)
    /// How long a fetch waiting for an upload waits between two asks.
    static let uploadPollInterval: Duration = .seconds(1)
    /// How long after the server refused an attachment as too large it is sent again: one piece (at
    /// most 4 MiB) an hour while the tenant stays past its quota.
    public static let refusalRetryInterval: Duration = .seconds(3_600)
    /// The sync's clock, in milliseconds since 1970 (``SyncOptions/wallClock``).
    private let now: @Sendable () -> UInt64

    /// The byte budget of ``SyncOptions/attachmentCacheBytes``, over an HTTP transport.
    private let cache: AttachmentCache?
    /// The attachments this process is fetching, by how many fetches: never evicted meanwhile, so
    /// that fetches at once do not take each other's bytes away before they return.
    private let pinned = Lock([String: Int]())

    init(database: DatabaseActor, transport: any SyncTransport, options: SyncOptions, syncedTables: Set<String>) {
        self.database = database
        now = options.now
        let cacheBytes = options.attachmentCacheBytes
        let transfer = (transport as? any AttachmentChannel).flatMap { try? AttachmentTransfer(transport: $0, attachments: database.attachments) }
        self.transfer = transfer
        cache = transfer.flatMap { transfer in
            cacheBytes.map {
                AttachmentCache(budget: $0, server: transfer.server, database: database, folder: transfer.folder, syncedTables: syncedTables)
            }
        }
    }

    /// Every transfer's progress, after each piece or range, from now on.
    ///
    /// ```swift
    /// for await p in sync.attachments.progress { print(p.direction, p.bytesDone, "of", p.byteCount) }
    /// ```
    public var progress: AsyncStream<AttachmentProgress> { events.stream() }

    /// Fetches the bytes of `attachment` into the database's attachments folder, in ranges, resumed
    /// where an earlier fetch stopped, checked against the id; returns at once when they are here.
    ///
    /// ```swift
    /// try await sync.attachments.fetch(photo.image)
    /// if let url = try await db.attachments.fileURL(for: photo.image) { imageView.image = UIImage(contentsOfFile: url.path) }
    /// ```
    ///
    /// With a budget (``SyncOptions/attachmentCacheBytes``), the least recently used attachments the
    /// server holds leave the device once these are here, as many as the budget needs.
    ///
    /// A row can arrive before its attachment's bytes reach the server: then the fetch waits for them,
    /// asking every second, until they do or the task is cancelled; with `waitingForUpload: false` it
    /// throws ``/BoutiqueDB/BoutiqueError/attachmentNotUploaded(id:)`` instead.
    ///
    /// - Throws: also ``/BoutiqueDB/BoutiqueError/attachmentDamaged(id:reason:)`` when what came is not
    ///   the bytes (nothing is kept), ``/BoutiqueDB/BoutiqueError/syncUnavailable(reason:)``,
    ///   ``/BoutiqueDB/BoutiqueError/cancelled``.
    public func fetch(_ attachment: Attachment, waitingForUpload: Bool = true) async throws {
        let transfer = try requireTransfer()
        while true {
            do {
                pinned.withLock { $0[attachment.id, default: 0] += 1 }
                defer { pinned.withLock { pins in pins[attachment.id] = pins[attachment.id].flatMap { $0 > 1 ? $0 - 1 : nil } } }
                try await transfer.download(attachment) { [events] held in
                    events.send(AttachmentProgress(id: attachment.id, direction: .download, bytesDone: held, byteCount: attachment.byteCount))
                }
                // The bytes are here: a budget that cannot be kept this time fails no fetch.
                try? await trim()
                return
            } catch BoutiqueError.attachmentNotUploaded(let id) {
                guard waitingForUpload else { throw BoutiqueError.attachmentNotUploaded(id: id) }
                do { try await Task.sleep(for: Self.uploadPollInterval) } catch { throw BoutiqueError.cancelled }
            } catch {
                throw BoutiqueSync.publicError(error)
            }
        }
    }

    /// Uploads every queued attachment whose bytes are on this device and that the server has not
    /// refused (or refused as too large over ``refusalRetryInterval`` ago), and returns how many the
    /// server now holds whole; entries without bytes here are dropped (another device uploads them).
    /// An attachment the server refuses (413: larger than it takes, or past the tenant's quota; 400:
    /// not the id's bytes) is marked refused (``refused()``) and the others go on. Sync calls it after its pushes; call it yourself before the app suspends, say.
    /// Bytes uploaded count against ``SyncOptions/attachmentCacheBytes`` from then on.
    ///
    /// ```swift
    /// let uploaded = try await sync.attachments.uploadWaiting()
    /// ```
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/syncUnavailable(reason:)`` when the server cannot be
    ///   reached or keeps no attachments, a ``SyncRefusal`` of the device itself (``SyncRefusal/Reason/unauthorized``,
    ///   say): the entries not sent yet stay queued.
    @discardableResult
    public func uploadWaiting() async throws -> Int {
        let transfer = try requireTransfer()
        var uploaded = 0
        do {
            let (time, interval) = (now(), UInt64(Self.refusalRetryInterval.components.seconds) * 1_000)
            let retryingRefusedAt = time > interval ? time - interval : 0
            let queue = try await database.read { conn in try AttachmentUploadQueue.waiting(SQLRunner(conn), retryingRefusedAt: retryingRefusedAt) }
            for attachment in queue {
                let confirmed: Bool
                do {
                    try await transfer.upload(attachment) { [events] held in
                        events.send(AttachmentProgress(id: attachment.id, direction: .upload, bytesDone: held, byteCount: attachment.byteCount))
                    }
                    uploaded += 1
                    confirmed = true
                } catch BoutiqueError.attachmentNotFound {
                    // No bytes here: a pulled row's attachment, or bytes removed before they went.
                    // Dropped from the queue, but nothing says the server holds them.
                    confirmed = false
                } catch let refusal as SyncRefusal where refusal.reason == .tooLarge || refusal.reason == .invalid {
                    // Kept, marked, and not in the way of the others.
                    let time = now()
                    try await database.write { conn in try AttachmentUploadQueue.markRefused(attachment.id, refusal, at: time, SQLRunner(conn)) }
                    _ = try await countWaiting()
                    continue
                }
                try await database.write { [server = transfer.server] conn in
                    try AttachmentUploadQueue.remove(attachment.id, SQLRunner(conn))
                    if confirmed { try ConfirmedAttachments.record(attachment, server: server, conn) }
                }
                _ = try await countWaiting()
            }
            // What went counts against the budget now; a budget that cannot be kept this time (a
            // file that cannot be removed) fails no upload.
            if uploaded > 0 { try? await trim() }
        } catch {
            _ = try? await countWaiting()
            throw BoutiqueSync.publicError(error)
        }
        return uploaded
    }

    /// The attachments the server refused to take, with its refusal, by id: kept in the queue and
    /// not sent again, their bytes kept on this device.
    ///
    /// ```swift
    /// for refused in try await sync.attachments.refused() {
    ///     print(refused.attachment.id, refused.refusal.reason, refused.refusal.message)
    /// }
    /// ```
    public func refused() async throws -> [RefusedAttachment] {
        do {
            return try await database.read { conn in try AttachmentUploadQueue.refused(SQLRunner(conn)) }
        } catch {
            throw BoutiqueSync.publicError(error)
        }
    }

    /// Fetches every attachment a row of the database points at that is not here, up to `maxBytes`
    /// each; those not uploaded yet are left for a later round.
    ///
    /// An attachment that cannot be fetched (the server refused it or sent other bytes, the connection
    /// dropped) is counted (``SyncStatus/attachmentsNotFetched``) and tried again next round, and the
    /// others go on: it never fails the sync that brought its row, nor every sync after it. One not
    /// uploaded yet is not counted: it comes once its device uploads it. A round that is cancelled (sync
    /// stopped) or cannot list the attachments leaves the count as the last whole round left it.
    /// Returns whether the count changed.
    ///
    /// With a budget, only what fits in the room it leaves is fetched, and nothing is evicted: the
    /// others wait to be asked for.
    func fetchMissing(upTo maxBytes: Int64) async -> Bool {
        var room = Int64.max
        if let cache {
            guard let used = try? await cache.usedBytes() else { return false }
            room = max(0, cache.budget - used)
        }
        guard let transfer, let round = try? await transfer.downloadMissing(upTo: maxBytes, room: room, progress: { [events] attachment, held in
            events.send(AttachmentProgress(id: attachment.id, direction: .download, bytesDone: held, byteCount: attachment.byteCount))
        }) else { return false }
        // Swapped in one step: the push loop and the pull loop may both be in a round.
        let last = notFetched.withLock { count in
            defer { count = round.failed.count }
            return count
        }
        return last != round.failed.count
    }

    /// Keeps the budget, if there is one, sparing the attachments being fetched.
    private func trim() async throws {
        guard let cache else { return }
        try await cache.trim(keeping: pinned.withLock { Set($0.keys) })
    }

    /// Whether attachments move over this sync's transport.
    var isAvailable: Bool { transfer != nil }

    /// Counts the queue; returns whether a count changed.
    func countWaiting() async throws -> Bool {
        let count = try await database.read { conn in try AttachmentUploadQueue.count(SQLRunner(conn)) }
        return counts.withLock { known in
            defer { known = count }
            return known != count
        }
    }

    /// The attachments waiting to be uploaded, as last counted.
    var waiting: Int { counts.withLock { $0.waiting } }

    /// The attachments the server refused, as last counted.
    var refusedCount: Int { counts.withLock { $0.refused } }

    /// The attachments the last eager round could not fetch.
    var notFetchedCount: Int { notFetched.withLock { $0 } }

    private func requireTransfer() throws -> AttachmentTransfer {
        guard let transfer else {
            throw BoutiqueError.invalidArgument("attachments move over an HTTP transport (HTTPSyncTransport) to a server that keeps them")
        }
        return transfer
    }
}
