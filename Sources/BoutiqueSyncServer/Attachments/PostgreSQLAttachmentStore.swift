import BoutiqueDB
import Foundation

/// A ``SyncAttachmentStore`` in the PostgreSQL database of a ``PostgreSQLSyncStore``, so that every
/// server instance on it sees every attachment: `boutique_sync_server_attachment_upload` holds an
/// upload per (tenant, id, size, user) with how many bytes it holds, `boutique_sync_server_attachment_piece`
/// its pieces as they came (each request's body is one piece). The first upload made whole is the
/// attachment; another user's upload of bytes held whole is a proof, compared with them, not stored.
///
/// ```swift
/// let store = try await PostgreSQLSyncStore.open(url: url)
/// let attachments = try PostgreSQLAttachmentStore(store: store, maximumAttachmentBytes: 1 << 30, tenantQuotaBytes: 50 << 30)
/// let http = try SyncHTTPServer(server: SyncServer(store: store), signer: signer, port: 8080, attachments: attachments)
/// ```
///
/// It refuses what ``FolderAttachmentStore`` refuses, in the same words. A piece is appended under a
/// lock on its upload's row, so that two instances receiving pieces of one user's upload take them in turn.
/// The piece that completes an upload is checked against the id (SHA-256, read back a piece at a time);
/// bytes that are not the id's are removed and the upload starts again. A range is read a piece at a
/// time, cut in the database: memory holds a piece or a range, whatever the size of the attachment.
public final class PostgreSQLAttachmentStore: SyncAttachmentStore {
    let store: PostgreSQLSyncStore
    /// The largest attachment taken; nil for no limit.
    public let maximumAttachmentBytes: Int64?
    /// The most bytes a tenant's attachments (whole or being uploaded) may take; nil for no limit.
    public let tenantQuotaBytes: Int64?

    /// A store of attachments in `store`'s database.
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/invalidArgument(_:)`` when a limit is not positive.
    public init(store: PostgreSQLSyncStore, maximumAttachmentBytes: Int64? = nil, tenantQuotaBytes: Int64? = nil) throws {
        for (name, limit) in [("maximum attachment size", maximumAttachmentBytes), ("tenant quota", tenantQuotaBytes)] {
            if let limit, limit <= 0 { throw BoutiqueError.invalidArgument("the \(name) must be a positive number of bytes, not \(limit)") }
        }
        self.store = store
        self.maximumAttachmentBytes = maximumAttachmentBytes
        self.tenantQuotaBytes = tenantQuotaBytes
    }

    public func state(of id: String, byteCount: Int64, tenant: String, uploader: String, evenIfStored: Bool) async throws -> AttachmentUploadState {
        try AttachmentChecks.check(id: id, byteCount: byteCount)
        return try await store.withConnection { connection in
            let whole = try Self.wholeUploader(of: id, byteCount: byteCount, tenant: tenant, connection) != nil
            if whole, !evenIfStored {
                // This user's unfinished upload of the same bytes is not needed any more.
                let own = Upload(tenant: tenant, id: id, byteCount: byteCount, user: Array(uploader.utf8))
                try connection.execute(
                    """
                    DELETE FROM boutique_sync_server_attachment_piece WHERE \(Upload.matches)
                        AND EXISTS (SELECT 1 FROM boutique_sync_server_attachment_upload WHERE \(Upload.matches) AND NOT uploaded)
                    """,
                    own.key)
                try connection.execute(
                    "UPDATE boutique_sync_server_attachment_upload SET held = 0 WHERE \(Upload.matches) AND NOT uploaded AND held > 0", own.key)
                return AttachmentUploadState(id: id, byteCount: byteCount, offset: byteCount, isUploaded: true)
            }
            let own = try connection.execute(
                """
                SELECT held, uploaded, proven FROM boutique_sync_server_attachment_upload
                WHERE tenant = $1 AND attachment = $2 AND byte_count = $3 AND usr = $4
                """,
                [.text(tenant), .text(id), .int8(byteCount), .bytea(Array(uploader.utf8))])
            guard own.rowCount > 0 else { return AttachmentUploadState(id: id, byteCount: byteCount, offset: 0, isUploaded: false) }
            // Over bytes held whole (the user's own copy included: a user who uploaded them and is not
            // recorded as their uploader proves it again), the upload is a proof, and stands where the
            // proof does, as `append` takes it.
            let offset = whole ? Self.reached(try own.int64(0, 2)) : try own.int64(0, 0)
            return AttachmentUploadState(id: id, byteCount: byteCount, offset: offset, isUploaded: false)
        }
    }

    /// What an append found, thrown only once its transaction is over: a refusal that must keep what
    /// the transaction removed (the bytes of a failed upload) is returned, not thrown.
    private enum Appended: Sendable {
        case state(AttachmentUploadState)
        case refused(AttachmentRefusal)
    }

    /// One user's upload of one attachment: the key of its row and of its pieces.
    private struct Upload {
        let tenant: String, id: String, byteCount: Int64, user: [UInt8]

        /// `$1`…`$4` of the statements below.
        var key: [PostgreSQLValue] { [.text(tenant), .text(id), .int8(byteCount), .bytea(user)] }
        static let matches = "tenant = $1 AND attachment = $2 AND byte_count = $3 AND usr = $4"
    }

    public func append(
        _ bytes: [UInt8], to id: String, byteCount: Int64, at offset: Int64, tenant: String, uploader: String, evenIfStored: Bool
    ) async throws -> AttachmentUploadState {
        try AttachmentChecks.check(piece: bytes.count, of: id, byteCount: byteCount, at: offset, maximumAttachmentBytes: maximumAttachmentBytes)
        let quota = tenantQuotaBytes
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let upload = Upload(tenant: tenant, id: id, byteCount: byteCount, user: Array(uploader.utf8))
        let appended = try await store.withConnection { connection -> Appended in
            try connection.execute(
                """
                INSERT INTO boutique_sync_server_attachment_upload(tenant, attachment, byte_count, usr, held, uploaded, changed_at)
                VALUES ($1, $2, $3, $4, 0, false, $5) ON CONFLICT DO NOTHING
                """,
                upload.key + [.int8(now)])
            // The user's upload's row, locked: their pieces, on any instance, are appended in turn.
            let row = try connection.execute(
                "SELECT held, uploaded, proven FROM boutique_sync_server_attachment_upload WHERE \(Upload.matches) FOR UPDATE", upload.key)
            let held = try row.int64(0, 0), uploaded = try row.bool(0, 1), proven = try row.int64(0, 2)
            if let whole = uploaded ? upload.user : try Self.wholeUploader(of: id, byteCount: byteCount, tenant: tenant, connection) {
                // Held whole (by this upload or another user's): what this user had sent of it is not needed.
                if !uploaded, held > 0 { try Self.clear(upload, at: now, connection) }
                guard evenIfStored else { return .state(AttachmentUploadState(id: id, byteCount: byteCount, offset: byteCount, isUploaded: true)) }
                let stored = Upload(tenant: tenant, id: id, byteCount: byteCount, user: whole)
                return try Self.prove(bytes, at: offset, against: stored, proven: proven, as: upload, connection)
            }
            if let quota {
                // Every other upload counts, of this id at another size or by another user included, so
                // that clients cannot fill the disk past the quota by changing sizes or users.
                let others = try connection.execute(
                    "SELECT coalesce(sum(held), 0)::int8 FROM boutique_sync_server_attachment_upload WHERE tenant = $1 AND NOT (\(Upload.matches))",
                    upload.key
                ).int64(0, 0)
                // Subtracted, not added: a size a client announces may be as large as Int64 holds.
                guard others <= quota, byteCount <= quota - others else {
                    return .refused(AttachmentRefusal(
                        .tooLarge,
                        "the tenant's attachments take \(others) bytes and this one \(byteCount), past the tenant's quota of \(quota); nothing was stored"))
                }
            }
            guard offset == held else {
                return .refused(AttachmentRefusal(.offsetMismatch, "the upload stands at offset \(held), not \(offset); send from there", heldOffset: held))
            }
            let end = held + Int64(bytes.count)
            if !bytes.isEmpty {
                try connection.execute(
                    """
                    INSERT INTO boutique_sync_server_attachment_piece(tenant, attachment, byte_count, usr, piece_offset, piece_end, bytes)
                    VALUES ($1, $2, $3, $4, $5, $6, $7)
                    """,
                    upload.key + [.int8(held), .int8(end), .bytea(bytes)])
            }
            guard end == byteCount else {
                try Self.setHeld(end, uploaded: false, of: upload, at: now, connection)
                return .state(AttachmentUploadState(id: id, byteCount: byteCount, offset: end, isUploaded: false))
            }
            guard try Self.digest(of: upload, connection) == id else {
                try Self.clear(upload, at: now, connection)
                return .refused(AttachmentRefusal(.invalid, Self.notTheAttachments))
            }
            // Completions of one attachment take their turn, and one that finds a copy made whole
            // meanwhile (another user's, finished at the same moment) keeps that one: stored once.
            try connection.execute(
                "SELECT pg_advisory_xact_lock($1, hashtext($2 || '/' || $3 || '/' || $4::text))",
                [.int4(Self.completionLockKey), .text(tenant), .text(id), .int8(byteCount)])
            if try Self.wholeUploader(of: id, byteCount: byteCount, tenant: tenant, connection) != nil {
                try Self.clear(upload, at: now, connection)
                return .state(AttachmentUploadState(id: id, byteCount: byteCount, offset: byteCount, isUploaded: true))
            }
            try Self.setHeld(byteCount, uploaded: true, of: upload, at: now, connection)
            return .state(AttachmentUploadState(id: id, byteCount: byteCount, offset: byteCount, isUploaded: true))
        }
        switch appended {
        case .state(let state): return state
        case .refused(let refusal): throw refusal
        }
    }

    /// The first key of the advisory locks an upload's completion takes (the second is its attachment's
    /// hash): "Attc", apart from the tenants' one-number keys and the migrations' ("Bout", "Sync").
    private static let completionLockKey: Int32 = 0x4174_7463

    /// The user whose upload of `id` at `byteCount` is whole, if any: its pieces are the attachment.
    /// Its row is share-locked, so that a removal under way (which holds it for update) is waited for:
    /// an answer never says "uploaded" of bytes about to go.
    private static func wholeUploader(of id: String, byteCount: Int64, tenant: String, _ connection: PostgreSQLConnection) throws -> [UInt8]? {
        let found = try connection.execute(
            """
            SELECT usr FROM boutique_sync_server_attachment_upload
            WHERE tenant = $1 AND attachment = $2 AND byte_count = $3 AND uploaded ORDER BY usr LIMIT 1 FOR SHARE
            """,
            [.text(tenant), .text(id), .int8(byteCount)])
        return found.rowCount > 0 ? try found.bytes(0, 0) : nil
    }

    public func read(_ id: String, offset: Int64, length: Int, tenant: String) async throws -> (bytes: [UInt8], byteCount: Int64) {
        try AttachmentChecks.check(id: id, byteCount: 0)
        return try await store.withConnection { connection in
            let found = try connection.execute(
                """
                SELECT byte_count, usr FROM boutique_sync_server_attachment_upload
                WHERE tenant = $1 AND attachment = $2 AND uploaded ORDER BY byte_count, usr LIMIT 1
                """,
                [.text(tenant), .text(id)])
            guard found.rowCount > 0 else { throw AttachmentRefusal(.notFound, "no attachment \(id) is uploaded") }
            let whole = Upload(tenant: tenant, id: id, byteCount: try found.int64(0, 0), user: try found.bytes(0, 1))
            guard offset >= 0, offset < whole.byteCount || (offset == 0 && whole.byteCount == 0) else {
                throw AttachmentRefusal(.rangeNotSatisfiable, "offset \(offset) is past the end of the attachment's \(whole.byteCount) bytes")
            }
            guard length > 0 else { throw AttachmentRefusal(.invalid, "a range must ask for at least one byte, not \(length)") }
            let end = offset + min(Int64(length), whole.byteCount - offset)
            return (try Self.range(of: whole, from: offset, to: end, connection), whole.byteCount)
        }
    }

    public func attachments(tenant: String, unchangedBefore cutoff: UInt64) async throws -> [(id: String, isWhole: Bool)] {
        try await store.withConnection { connection in
            let found = try connection.execute(
                """
                SELECT attachment, bool_or(uploaded) FROM boutique_sync_server_attachment_upload
                WHERE tenant = $1 GROUP BY attachment HAVING bool_or(changed_at < $2) ORDER BY attachment
                """,
                [.text(tenant), .int8(Int64(clamping: cutoff))])
            return try (0..<found.rowCount).map { row in (id: try found.string(row, 0), isWhole: try found.bool(row, 1)) }
        }
    }

    public func remove(
        _ id: String, tenant: String, unchangedBefore cutoff: UInt64, unless isWanted: @Sendable () async throws -> Bool
    ) async throws -> Int64 {
        try AttachmentChecks.check(id: id, byteCount: 0)
        return try await store.withConnection { connection in
            // Locked as an append locks them: a piece being appended now waits, then finds nothing;
            // a device asking where its upload stands waits too (`FOR SHARE`), then is told they went.
            let uploads = try connection.execute(
                """
                SELECT byte_count, usr, held FROM boutique_sync_server_attachment_upload
                WHERE tenant = $1 AND attachment = $2 AND changed_at < $3 FOR UPDATE
                """,
                [.text(tenant), .text(id), .int8(Int64(clamping: cutoff))])
            // The rows and their pointers are in this database: `isWanted` is answered here, under the
            // locks (a push committed before now keeps the bytes; a device told after now that they
            // are not uploaded sends them again).
            let pointed = try connection.execute(
                "SELECT \(PostgreSQLStoreTransaction.livePointerExists)", [.text(tenant), .text(id)]
            ).bool(0, 0)
            guard !pointed else { return 0 }
            var removed: Int64 = 0
            for row in 0..<uploads.rowCount {
                let upload = Upload(tenant: tenant, id: id, byteCount: try uploads.int64(row, 0), user: try uploads.bytes(row, 1))
                removed += try uploads.int64(row, 2)
                for table in ["boutique_sync_server_attachment_piece", "boutique_sync_server_attachment_upload"] {
                    try connection.execute("DELETE FROM \(table) WHERE \(Upload.matches)", upload.key)
                }
            }
            return removed
        }
    }

    /// The bytes of `upload` in [`start`, `end`), cut from its pieces by the database.
    private static func range(of upload: Upload, from start: Int64, to end: Int64, _ connection: PostgreSQLConnection) throws -> [UInt8] {
        guard end > start else { return [] }
        let pieces = try connection.execute(
            """
            SELECT substring(bytes FROM (greatest($5, piece_offset) - piece_offset + 1)::int4
                FOR (least($6, piece_end) - greatest($5, piece_offset))::int4)
            FROM boutique_sync_server_attachment_piece
            WHERE \(Upload.matches) AND piece_offset < $6 AND piece_end > $5
            ORDER BY piece_offset
            """,
            upload.key + [.int8(start), .int8(end)])
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(end - start))
        for row in 0..<pieces.rowCount { bytes.append(contentsOf: try pieces.bytes(row, 0)) }
        return bytes
    }

    /// The SHA-256 (hex) of `upload`'s pieces, read one at a time.
    private static func digest(of upload: Upload, _ connection: PostgreSQLConnection) throws -> String {
        guard let hasher = SHA256Hasher() else { throw BoutiqueError.syncUnavailable(reason: "OpenSSL could not compute a SHA-256") }
        var position: Int64 = -1
        while true {
            let piece = try connection.execute(
                """
                SELECT piece_offset, bytes FROM boutique_sync_server_attachment_piece
                WHERE \(Upload.matches) AND piece_offset > $5 ORDER BY piece_offset LIMIT 1
                """,
                upload.key + [.int8(position)])
            guard piece.rowCount > 0 else { break }
            position = try piece.int64(0, 0)
            let bytes = try piece.bytes(0, 1)
            bytes.withUnsafeBytes { hasher.update($0) }
        }
        guard let digest = hasher.finalize() else { throw BoutiqueError.syncUnavailable(reason: "OpenSSL could not compute a SHA-256") }
        return SHA256Hasher.hex(digest)
    }

    /// The refusal of bytes that are not the id's, worded the same whether or not the store held them
    /// before, so that it tells nothing of what the store holds.
    static let notTheAttachments =
        "the bytes sent are not the attachment's (their SHA-256 is not its id); nothing was stored, the upload starts again from 0"

    /// A piece of `upload`, of bytes the store holds whole (as `stored`), by a user who must show they
    /// hold them: compared with the stored bytes at its offset (which are the id's), so that equal
    /// pieces from 0 to the end are the id's bytes.
    ///
    /// A piece that differs is answered as one that matches, and the proof fails only at its last
    /// piece, in the words a fresh upload's wrong hash gets: answering at once would let a user who
    /// knows an id learn the bytes one guess at a time. The column `proven` of the user's upload keeps
    /// both where the proof stands and whether a piece differed: the offset reached, or, once a piece
    /// differed, `-(offset + 1)`.
    private static func prove(
        _ bytes: [UInt8], at offset: Int64, against stored: Upload, proven: Int64, as upload: Upload, _ connection: PostgreSQLConnection
    ) throws -> Appended {
        let reached = reached(proven)
        guard offset == reached else {
            return .refused(AttachmentRefusal(.offsetMismatch, "the upload stands at offset \(reached), not \(offset); send from there", heldOffset: reached))
        }
        let end = offset + Int64(bytes.count)
        let matches = try proven >= 0 && range(of: stored, from: offset, to: end, connection) == bytes
        guard end == upload.byteCount else {
            try setProven(matches ? end : -(end + 1), of: upload, connection)
            return .state(AttachmentUploadState(id: upload.id, byteCount: upload.byteCount, offset: end, isUploaded: false))
        }
        try setProven(0, of: upload, connection)
        guard matches else { return .refused(AttachmentRefusal(.invalid, notTheAttachments)) }
        return .state(AttachmentUploadState(id: upload.id, byteCount: upload.byteCount, offset: upload.byteCount, isUploaded: true))
    }

    /// The offset a proof has reached, from its `proven` column.
    private static func reached(_ proven: Int64) -> Int64 { proven < 0 ? -(proven + 1) : proven }

    private static func setProven(_ proven: Int64, of upload: Upload, _ connection: PostgreSQLConnection) throws {
        try connection.execute("UPDATE boutique_sync_server_attachment_upload SET proven = $5 WHERE \(Upload.matches)", upload.key + [.int8(proven)])
    }

    private static func setHeld(_ held: Int64, uploaded: Bool, of upload: Upload, at now: Int64, _ connection: PostgreSQLConnection) throws {
        try connection.execute(
            "UPDATE boutique_sync_server_attachment_upload SET held = $5, uploaded = $6, changed_at = $7 WHERE \(Upload.matches)",
            upload.key + [.int8(held), .bool(uploaded), .int8(now)])
    }

    /// Removes `upload`'s pieces: it starts again from 0.
    private static func clear(_ upload: Upload, at now: Int64, _ connection: PostgreSQLConnection) throws {
        try connection.execute("DELETE FROM boutique_sync_server_attachment_piece WHERE \(Upload.matches)", upload.key)
        try setHeld(0, uploaded: false, of: upload, at: now, connection)
    }
}
