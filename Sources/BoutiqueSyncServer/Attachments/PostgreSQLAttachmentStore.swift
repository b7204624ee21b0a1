import BoutiqueDB
import Foundation

/// A ``SyncAttachmentStore`` in the PostgreSQL database of a ``PostgreSQLSyncStore``, so that every
/// server instance on it sees every attachment: `boutique_sync_server_attachment_upload` holds an
/// upload per (tenant, id, size) with how many bytes it holds, `boutique_sync_server_attachment_piece`
/// its pieces as they came (each request's body is one piece).
///
/// ```swift
/// let store = try await PostgreSQLSyncStore.open(url: url)
/// let attachments = try PostgreSQLAttachmentStore(store: store, maximumAttachmentBytes: 1 << 30, tenantQuotaBytes: 50 << 30)
/// let http = try SyncHTTPServer(server: SyncServer(store: store), signer: signer, port: 8080, attachments: attachments)
/// ```
///
/// It refuses what ``FolderAttachmentStore`` refuses, in the same words. A piece is appended under a
/// lock on its upload's row, so that two instances receiving pieces of one upload take them in turn.
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

    public func state(of id: String, byteCount: Int64, tenant: String) async throws -> AttachmentUploadState {
        try AttachmentChecks.check(id: id, byteCount: byteCount)
        return try await store.withConnection { connection in
            let found = try connection.execute(
                "SELECT held, uploaded FROM boutique_sync_server_attachment_upload WHERE tenant = $1 AND attachment = $2 AND byte_count = $3",
                [.text(tenant), .text(id), .int8(byteCount)])
            guard found.rowCount > 0 else { return AttachmentUploadState(id: id, byteCount: byteCount, offset: 0, isUploaded: false) }
            return AttachmentUploadState(id: id, byteCount: byteCount, offset: try found.int64(0, 0), isUploaded: try found.bool(0, 1))
        }
    }

    /// What an append found, thrown only once its transaction is over: a refusal that must keep what
    /// the transaction removed (the bytes of a failed upload) is returned, not thrown.
    private enum Appended: Sendable {
        case state(AttachmentUploadState)
        case refused(AttachmentRefusal)
    }

    public func append(
        _ bytes: [UInt8], to id: String, byteCount: Int64, at offset: Int64, tenant: String, evenIfStored: Bool
    ) async throws -> AttachmentUploadState {
        try AttachmentChecks.check(piece: bytes.count, of: id, byteCount: byteCount, at: offset, maximumAttachmentBytes: maximumAttachmentBytes)
        let quota = tenantQuotaBytes
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let appended = try await store.withConnection { connection -> Appended in
            try connection.execute(
                """
                INSERT INTO boutique_sync_server_attachment_upload(tenant, attachment, byte_count, held, uploaded, changed_at)
                VALUES ($1, $2, $3, 0, false, $4) ON CONFLICT DO NOTHING
                """,
                [.text(tenant), .text(id), .int8(byteCount), .int8(now)])
            // The upload's row, locked: pieces of one upload, on any instance, are appended in turn.
            let row = try connection.execute(
                """
                SELECT held, uploaded, proven FROM boutique_sync_server_attachment_upload
                WHERE tenant = $1 AND attachment = $2 AND byte_count = $3 FOR UPDATE
                """,
                [.text(tenant), .text(id), .int8(byteCount)])
            let held = try row.int64(0, 0), uploaded = try row.bool(0, 1), proven = try row.int64(0, 2)
            if uploaded {
                guard evenIfStored else { return .state(AttachmentUploadState(id: id, byteCount: byteCount, offset: byteCount, isUploaded: true)) }
                return try Self.prove(bytes, of: id, byteCount: byteCount, at: offset, proven: proven, tenant: tenant, connection)
            }
            if let quota {
                let others = try connection.execute(
                    """
                    SELECT coalesce(sum(held), 0)::int8 FROM boutique_sync_server_attachment_upload
                    WHERE tenant = $1 AND NOT (attachment = $2 AND byte_count = $3)
                    """,
                    [.text(tenant), .text(id), .int8(byteCount)]
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
                    INSERT INTO boutique_sync_server_attachment_piece(tenant, attachment, byte_count, piece_offset, piece_end, bytes)
                    VALUES ($1, $2, $3, $4, $5, $6)
                    """,
                    [.text(tenant), .text(id), .int8(byteCount), .int8(held), .int8(end), .bytea(bytes)])
            }
            guard end == byteCount else {
                try Self.setHeld(end, uploaded: false, of: id, byteCount: byteCount, tenant: tenant, at: now, connection)
                return .state(AttachmentUploadState(id: id, byteCount: byteCount, offset: end, isUploaded: false))
            }
            let digest = try Self.digest(of: id, byteCount: byteCount, tenant: tenant, connection)
            guard digest == id else {
                try connection.execute(
                    "DELETE FROM boutique_sync_server_attachment_piece WHERE tenant = $1 AND attachment = $2 AND byte_count = $3",
                    [.text(tenant), .text(id), .int8(byteCount)])
                try Self.setHeld(0, uploaded: false, of: id, byteCount: byteCount, tenant: tenant, at: now, connection)
                return .refused(AttachmentRefusal(.invalid, Self.notTheAttachments))
            }
            try Self.setHeld(byteCount, uploaded: true, of: id, byteCount: byteCount, tenant: tenant, at: now, connection)
            return .state(AttachmentUploadState(id: id, byteCount: byteCount, offset: byteCount, isUploaded: true))
        }
        switch appended {
        case .state(let state): return state
        case .refused(let refusal): throw refusal
        }
    }

    public func read(_ id: String, offset: Int64, length: Int, tenant: String) async throws -> (bytes: [UInt8], byteCount: Int64) {
        try AttachmentChecks.check(id: id, byteCount: 0)
        return try await store.withConnection { connection in
            let found = try connection.execute(
                "SELECT byte_count FROM boutique_sync_server_attachment_upload WHERE tenant = $1 AND attachment = $2 AND uploaded LIMIT 1",
                [.text(tenant), .text(id)])
            guard found.rowCount > 0 else { throw AttachmentRefusal(.notFound, "no attachment \(id) is uploaded") }
            let byteCount = try found.int64(0, 0)
            guard offset >= 0, offset < byteCount || (offset == 0 && byteCount == 0) else {
                throw AttachmentRefusal(.rangeNotSatisfiable, "offset \(offset) is past the end of the attachment's \(byteCount) bytes")
            }
            guard length > 0 else { throw AttachmentRefusal(.invalid, "a range must ask for at least one byte, not \(length)") }
            let end = offset + min(Int64(length), byteCount - offset)
            return (try Self.range(of: id, byteCount: byteCount, from: offset, to: end, tenant: tenant, connection), byteCount)
        }
    }

    public func attachments(tenant: String, unchangedBefore cutoff: UInt64) async throws -> [(id: String, isWhole: Bool)] {
        try await store.withConnection { connection in
            let found = try connection.execute(
                """
                SELECT attachment, bool_or(uploaded) FROM boutique_sync_server_attachment_upload
                WHERE tenant = $1 AND changed_at < $2 GROUP BY attachment ORDER BY attachment
                """,
                [.text(tenant), .int8(Int64(clamping: cutoff))])
            return try (0..<found.rowCount).map { row in (id: try found.string(row, 0), isWhole: try found.bool(row, 1)) }
        }
    }

    public func remove(_ id: String, tenant: String, unchangedBefore cutoff: UInt64) async throws -> Int64 {
        try AttachmentChecks.check(id: id, byteCount: 0)
        return try await store.withConnection { connection in
            // Locked as an append locks them: a piece being appended now waits, then finds nothing.
            let uploads = try connection.execute(
                """
                SELECT byte_count, held FROM boutique_sync_server_attachment_upload
                WHERE tenant = $1 AND attachment = $2 AND changed_at < $3 FOR UPDATE
                """,
                [.text(tenant), .text(id), .int8(Int64(clamping: cutoff))])
            var removed: Int64 = 0
            for row in 0..<uploads.rowCount {
                let byteCount = try uploads.int64(row, 0)
                removed += try uploads.int64(row, 1)
                for table in ["boutique_sync_server_attachment_piece", "boutique_sync_server_attachment_upload"] {
                    try connection.execute(
                        "DELETE FROM \(table) WHERE tenant = $1 AND attachment = $2 AND byte_count = $3",
                        [.text(tenant), .text(id), .int8(byteCount)])
                }
            }
            return removed
        }
    }

    /// The bytes of the upload of `id` in [`start`, `end`), cut from its pieces by the database.
    private static func range(
        of id: String, byteCount: Int64, from start: Int64, to end: Int64, tenant: String, _ connection: PostgreSQLConnection
    ) throws -> [UInt8] {
        guard end > start else { return [] }
        let pieces = try connection.execute(
            """
            SELECT substring(bytes FROM (greatest($4, piece_offset) - piece_offset + 1)::int4
                FOR (least($5, piece_end) - greatest($4, piece_offset))::int4)
            FROM boutique_sync_server_attachment_piece
            WHERE tenant = $1 AND attachment = $2 AND byte_count = $3 AND piece_offset < $5 AND piece_end > $4
            ORDER BY piece_offset
            """,
            [.text(tenant), .text(id), .int8(byteCount), .int8(start), .int8(end)])
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(end - start))
        for row in 0..<pieces.rowCount { bytes.append(contentsOf: try pieces.bytes(row, 0)) }
        return bytes
    }

    /// The SHA-256 (hex) of the upload's pieces, read one at a time.
    private static func digest(of id: String, byteCount: Int64, tenant: String, _ connection: PostgreSQLConnection) throws -> String {
        guard let hasher = SHA256Hasher() else { throw BoutiqueError.syncUnavailable(reason: "OpenSSL could not compute a SHA-256") }
        var position: Int64 = -1
        while true {
            let piece = try connection.execute(
                """
                SELECT piece_offset, bytes FROM boutique_sync_server_attachment_piece
                WHERE tenant = $1 AND attachment = $2 AND byte_count = $3 AND piece_offset > $4 ORDER BY piece_offset LIMIT 1
                """,
                [.text(tenant), .text(id), .int8(byteCount), .int8(position)])
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

    /// A piece of an upload of bytes the store holds whole, by a user who must show they hold them:
    /// compared with the stored bytes at its offset (which are the id's), so that equal pieces from 0
    /// to the end are the id's bytes.
    ///
    /// A piece that differs is answered as one that matches, and the proof fails only at its last
    /// piece, in the words a fresh upload's wrong hash gets: answering at once would let a user who
    /// knows an id learn the bytes one guess at a time. The column `proven` keeps both where the proof
    /// stands and whether a piece differed: the offset reached, or, once a piece differed,
    /// `-(offset + 1)`.
    private static func prove(
        _ bytes: [UInt8], of id: String, byteCount: Int64, at offset: Int64, proven: Int64, tenant: String, _ connection: PostgreSQLConnection
    ) throws -> Appended {
        let differed = proven < 0
        let reached = differed ? -(proven + 1) : proven
        guard offset == reached else {
            return .refused(AttachmentRefusal(.offsetMismatch, "the upload stands at offset \(reached), not \(offset); send from there", heldOffset: reached))
        }
        let end = offset + Int64(bytes.count)
        let matches = try !differed && range(of: id, byteCount: byteCount, from: offset, to: end, tenant: tenant, connection) == bytes
        guard end == byteCount else {
            try setProven(matches ? end : -(end + 1), of: id, byteCount: byteCount, tenant: tenant, connection)
            return .state(AttachmentUploadState(id: id, byteCount: byteCount, offset: end, isUploaded: false))
        }
        try setProven(0, of: id, byteCount: byteCount, tenant: tenant, connection)
        guard matches else { return .refused(AttachmentRefusal(.invalid, notTheAttachments)) }
        return .state(AttachmentUploadState(id: id, byteCount: byteCount, offset: byteCount, isUploaded: true))
    }

    private static func setProven(_ proven: Int64, of id: String, byteCount: Int64, tenant: String, _ connection: PostgreSQLConnection) throws {
        try connection.execute(
            "UPDATE boutique_sync_server_attachment_upload SET proven = $4 WHERE tenant = $1 AND attachment = $2 AND byte_count = $3",
            [.text(tenant), .text(id), .int8(byteCount), .int8(proven)])
    }

    private static func setHeld(
        _ held: Int64, uploaded: Bool, of id: String, byteCount: Int64, tenant: String, at now: Int64, _ connection: PostgreSQLConnection
    ) throws {
        try connection.execute(
            """
            UPDATE boutique_sync_server_attachment_upload SET held = $4, uploaded = $5, changed_at = $6
            WHERE tenant = $1 AND attachment = $2 AND byte_count = $3
            """,
            [.text(tenant), .text(id), .int8(byteCount), .int8(held), .bool(uploaded), .int8(now)])
    }
}
