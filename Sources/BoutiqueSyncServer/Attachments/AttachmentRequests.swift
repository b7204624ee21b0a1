import BoutiqueDB

/// A device's three attachment requests, answered with the rights of DESIGN section 14: where an
/// upload stands, a piece of an upload, a range of an uploaded attachment. The HTTP front end answers
/// `/v1/attachments/` with it; an in-process server (the sync simulator's) calls it directly.
///
/// ```swift
/// let requests = AttachmentRequests(server: server, bytes: attachments)
/// var state = try await requests.state(of: id, byteCount: size, tenant: "acme", user: "ana")
/// state = try await requests.append(piece, to: id, byteCount: size, at: state.offset, tenant: "acme", user: "ana")
/// let range = try await requests.read(id, offset: 0, length: 1 << 20, tenant: "acme", user: "bob")
/// ```
///
/// Every refusal is an ``AttachmentRefusal``. A user who may not read an attachment is answered as if
/// the server did not hold it: no state but their own upload's, and 404 for its bytes, so that a hash
/// tells an outsider nothing.
package struct AttachmentRequests: Sendable {
    /// The longest range one read is answered with; a client asks again from where it ends.
    package static let maximumRangeBytes = 8 << 20

    /// The server whose rows and uploaders say who may read what.
    package let server: SyncServer
    /// Where the bytes are kept.
    package let bytes: any SyncAttachmentStore

    package init(server: SyncServer, bytes: any SyncAttachmentStore) {
        self.server = server
        self.bytes = bytes
    }

    /// Where the upload of `id` (of `byteCount` bytes) stands for `user`: uploaded when the server holds
    /// it whole and `user` may read it; otherwise where `user`'s own upload stands. Nobody learns where
    /// another user's upload stands.
    package func state(of id: String, byteCount: Int64, tenant: String, user: String) async throws -> AttachmentUploadState {
        let evenIfStored = !(try await mayRead(id, tenant: tenant, user: user))
        return try await bytes.state(of: id, byteCount: byteCount, tenant: tenant, uploader: user, evenIfStored: evenIfStored)
    }

    /// Appends `piece` at `offset` to `user`'s upload of `id`; the upload that makes the bytes whole
    /// records `user` as their uploader.
    package func append(
        _ piece: [UInt8], to id: String, byteCount: Int64, at offset: Int64, tenant: String, user: String
    ) async throws -> AttachmentUploadState {
        // A user who may not read the bytes uploads them whole, checked, even when the server holds them
        // (or comes to while this piece waits its turn): an id and a size alone (which rows show) do
        // not make the bytes theirs.
        let evenIfStored = !(try await mayRead(id, tenant: tenant, user: user))
        if !evenIfStored {
            // A reader's piece of bytes held whole already is answered so, and counts for nothing: only
            // the upload that makes the bytes whole, or a proof, records its user as their uploader
            // (whose rights outlive the rows'); an empty piece must not.
            let held = try await bytes.state(of: id, byteCount: byteCount, tenant: tenant, uploader: user)
            if held.isUploaded { return held }
        }
        let state = try await bytes.append(
            piece, to: id, byteCount: byteCount, at: offset, tenant: tenant, uploader: user, evenIfStored: evenIfStored)
        if state.isUploaded { try await server.noteUpload(of: id, by: user, tenant: tenant) }
        return state
    }

    /// Up to `length` bytes (and at most ``maximumRangeBytes``) of the uploaded attachment `id` from
    /// `offset`, for a user who may read it.
    ///
    /// - Throws: ``AttachmentRefusal`` ``AttachmentRefusal/Kind/notFound`` for a user who may not read
    ///   it, as for bytes the server does not hold: existence is not revealed.
    package func read(_ id: String, offset: Int64, length: Int64, tenant: String, user: String) async throws -> [UInt8] {
        guard try await mayRead(id, tenant: tenant, user: user) else {
            throw AttachmentRefusal(.notFound, "no attachment \(id.prefix(80)) is uploaded")
        }
        return try await bytes.read(id, offset: offset, length: Int(min(length, Int64(Self.maximumRangeBytes))), tenant: tenant).bytes
    }

    /// Whether `user` may read `id` (``SyncServer/mayRead(attachment:user:tenant:)``); an id that is not
    /// one is left to the store, which refuses it with its reason.
    private func mayRead(_ id: String, tenant: String, user: String) async throws -> Bool {
        guard Attachment.isValidID(id) else { return true }
        return try await server.mayRead(attachment: id, user: user, tenant: tenant)
    }
}
