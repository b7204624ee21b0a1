import Foundation

/// What a transport that carries attachments' bytes does: the three requests of an upload and a
/// download (DESIGN section 14), each at most one piece or range, which ``AttachmentTransfer`` makes in
/// turn. ``HTTPSyncTransport`` sends them to `/v1/attachments/`; the sync simulator's network hands them
/// to an in-process server, through its faults.
///
/// ```swift
/// let state = try await channel.uploadState(of: photo.image)
/// let next = try await channel.sendPiece(piece, of: photo.image, at: state.offset)   // nil: ask again
/// let range = try await channel.range(of: photo.image.id, offset: 0, length: AttachmentTransfer.pieceBytes)
/// ```
///
/// A refusal is thrown as a ``SyncRefusal`` (too large or past the quota: ``SyncRefusal/Reason/tooLarge``;
/// not the id's bytes: ``SyncRefusal/Reason/invalid``); no answer, or a server that keeps no
/// attachments, as ``/BoutiqueDB/BoutiqueError/syncUnavailable(reason:)``.
package protocol AttachmentChannel: Sendable {
    /// The server's address, under which the attachments it confirmed are recorded (``ConfirmedAttachments``).
    var attachmentServerAddress: String { get }
    /// Where the server stands with `attachment`: uploaded whole, or how many bytes of this user's
    /// upload it holds.
    func uploadState(of attachment: Attachment) async throws -> AttachmentUploadState
    /// Sends `piece`, the bytes of `attachment` from `offset`; returns where the upload stands then, or
    /// `nil` when the server stands elsewhere (a piece whose answer was lost arrived after all).
    func sendPiece(_ piece: Data, of attachment: Attachment, at offset: Int64) async throws -> AttachmentUploadState?
    /// Up to `length` bytes of the uploaded attachment `id` from `offset`.
    func range(of id: String, offset: Int64, length: Int) async throws -> AttachmentRange
}

/// A server's answer to a range of an attachment's bytes.
package enum AttachmentRange: Sendable {
    /// The bytes from the offset asked for.
    case bytes(Data)
    /// The server does not hold the attachment whole (or the user may not read it).
    case notUploaded
    /// The server's copy ends before the offset asked for.
    case endsBeforeOffset
}

extension HTTPSyncTransport: AttachmentChannel {
    package var attachmentServerAddress: String { url.absoluteString }

    package func uploadState(of attachment: Attachment) async throws -> AttachmentUploadState {
        let (data, status) = try await sendBytes(
            "GET", to: "v1/attachments/\(attachment.id)", query: "size=\(attachment.byteCount)", answers: [200, 404])
        try Self.requireAttachmentEndpoints(status, data)
        return try AttachmentUploadState.decoded(data, of: attachment)
    }

    package func sendPiece(_ piece: Data, of attachment: Attachment, at offset: Int64) async throws -> AttachmentUploadState? {
        let (data, status) = try await sendBytes(
            "PUT", to: "v1/attachments/\(attachment.id)", query: "size=\(attachment.byteCount)&offset=\(offset)", body: piece,
            answers: [200, 404, 409])
        try Self.requireAttachmentEndpoints(status, data)
        return status == 409 ? nil : try AttachmentUploadState.decoded(data, of: attachment)
    }

    package func range(of id: String, offset: Int64, length: Int) async throws -> AttachmentRange {
        let (data, status) = try await sendBytes(
            "GET", to: "v1/attachments/\(id)/bytes", query: "offset=\(offset)&length=\(length)", answers: [200, 404, 416])
        switch status {
        case 200: return .bytes(data)
        case 404: return .notUploaded
        default: return .endsBeforeOffset
        }
    }

    /// Throws `syncUnavailable` for a 404 to an upload's request: only a server without attachment
    /// endpoints answers it there, and the upload is not refused for that.
    private static func requireAttachmentEndpoints(_ status: Int, _ data: Data) throws {
        guard status == 404 else { return }
        let reason = (try? SyncJSON.decoder().decode(SyncHTTPErrorBody.self, from: data))?.error.reason ?? "not found"
        throw BoutiqueError.syncUnavailable(reason: "the server keeps no attachments (404: \(reason.prefix(300)))")
    }
}

extension AttachmentUploadState {
    /// The state in `data` (``AttachmentTransfer`` checks that it is `attachment`'s).
    package static func decoded(_ data: Data, of attachment: Attachment) throws -> AttachmentUploadState {
        guard let state = try? SyncJSON.decoder().decode(AttachmentUploadState.self, from: data) else {
            throw BoutiqueError.syncRefused(reason: "the server's answer about attachment \(attachment.id) is not its upload's state")
        }
        return state
    }

    /// This state, when it is one of `attachment`'s upload: whatever the channel, the transfer checks
    /// every state it is answered with here.
    package func checked(for attachment: Attachment) throws -> AttachmentUploadState {
        guard id == attachment.id, byteCount == attachment.byteCount, (0...attachment.byteCount).contains(offset) else {
            throw BoutiqueError.syncRefused(reason: "the server's answer about attachment \(attachment.id) is not its upload's state")
        }
        return self
    }
}
