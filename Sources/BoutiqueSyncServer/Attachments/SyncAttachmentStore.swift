/// Where a sync server keeps attachments' bytes, per tenant: uploads arrive in pieces at the offset the
/// store holds, and are readable once whole and checked against their id (their SHA-256).
///
/// ```swift
/// let attachments = try FolderAttachmentStore(directory: URL(fileURLWithPath: "sync.db.attachments"))
/// var state = try await attachments.state(of: id, byteCount: size, tenant: "acme", uploader: "ana")
/// state = try await attachments.append(piece, to: id, byteCount: size, at: state.offset, tenant: "acme", uploader: "ana")
/// let range = try await attachments.read(id, offset: 0, length: 1 << 20, tenant: "acme")
/// ```
///
/// Every refusal is an ``AttachmentRefusal`` with the HTTP status it is answered with. Nothing crosses
/// tenants: the same bytes uploaded by two tenants are stored twice, once for each.
///
/// An upload in progress is its uploader's own: another user of the tenant uploading the same bytes
/// starts from 0, and neither learns where the other stands. Sharing the progress would let a user
/// who knows an id and the end of its bytes finish someone else's upload by sending only the end,
/// and be counted as holding the whole (DESIGN section 14, "Rights"). Once whole, the bytes are
/// stored once per tenant, whoever uploaded them.
public protocol SyncAttachmentStore: Sendable {
    /// What the store holds of `id` (of `byteCount` bytes) for `tenant`: uploaded when it holds the
    /// attachment whole; otherwise where `uploader`'s own upload of it stands.
    ///
    /// With `evenIfStored`, where `uploader`'s own upload stands, never uploaded, whether or not the
    /// store holds the attachment whole: the state a user who may not read it is answered with.
    func state(of id: String, byteCount: Int64, tenant: String, uploader: String, evenIfStored: Bool) async throws -> AttachmentUploadState

    /// Appends `bytes` at `offset` to `uploader`'s upload of `id`; the piece that completes it is
    /// checked against the id before the attachment becomes readable.
    ///
    /// With `evenIfStored`, an attachment held whole already is uploaded again from `offset` as if it
    /// were not, and checked again once whole: the upload of a user who may not read it, who must
    /// show they hold the bytes before the server counts them as theirs.
    func append(
        _ bytes: [UInt8], to id: String, byteCount: Int64, at offset: Int64, tenant: String, uploader: String, evenIfStored: Bool
    ) async throws -> AttachmentUploadState

    /// `tenant`'s attachments with bytes (whole or uploads in progress) that last changed before
    /// `cutoff` (milliseconds since 1970), each whole (`isWhole`) when the store holds it whole,
    /// whenever that copy changed: what garbage collection looks at
    /// (``SyncServer/collectAttachments(tenant:in:retentionMilliseconds:)``).
    func attachments(tenant: String, unchangedBefore cutoff: UInt64) async throws -> [(id: String, isWhole: Bool)]

    /// Removes `tenant`'s bytes of `id` — the attachment whole and uploads of it in progress, at any
    /// size — that last changed before `cutoff`, unless `isWanted` says a row came to point at them
    /// meanwhile; returns how many bytes went. Bytes a piece is being written to now are left.
    ///
    /// `isWanted` is asked once the bytes are out of sight (no state, read or upload sees them), and
    /// before they go: a row pushed before then, whose device was told the bytes are uploaded, keeps
    /// them, and a device that asks after then is told they are not, and uploads them again. A store
    /// that keeps its bytes in the sync store's own database may answer it there instead, in the
    /// transaction that removes them.
    func remove(
        _ id: String, tenant: String, unchangedBefore cutoff: UInt64, unless isWanted: @Sendable () async throws -> Bool
    ) async throws -> Int64

    /// Up to `length` bytes of the uploaded attachment `id` from `offset`, and its whole size.
    func read(_ id: String, offset: Int64, length: Int, tenant: String) async throws -> (bytes: [UInt8], byteCount: Int64)
}

extension SyncAttachmentStore {
    /// What the store holds of `id` for `tenant`, and where `uploader`'s upload stands when not whole.
    public func state(of id: String, byteCount: Int64, tenant: String, uploader: String) async throws -> AttachmentUploadState {
        try await state(of: id, byteCount: byteCount, tenant: tenant, uploader: uploader, evenIfStored: false)
    }

    /// Appends `bytes` at `offset` to `uploader`'s upload of `id`, answering at once for an attachment held whole.
    public func append(
        _ bytes: [UInt8], to id: String, byteCount: Int64, at offset: Int64, tenant: String, uploader: String
    ) async throws -> AttachmentUploadState {
        try await append(bytes, to: id, byteCount: byteCount, at: offset, tenant: tenant, uploader: uploader, evenIfStored: false)
    }
}
