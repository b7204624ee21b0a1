import BoutiqueSync
import BoutiqueSyncServer
import Foundation

/// Attachments' bytes over the simulated network: the requests a device's ``AttachmentTransfer`` makes,
/// handed to the server's ``AttachmentRequests`` as the device's user, through the same faults as its
/// pushes (a piece lost, its answer lost after the server stored it, a piece sent twice). Refusals come
/// back as the HTTP transport's do.
extension SimulatedNetwork: AttachmentChannel {
    var attachmentServerAddress: String { serverIdentifier }

    func uploadState(of attachment: Attachment) async throws -> AttachmentUploadState {
        let requests = try requireAttachments()
        return try await send("attachment state") {
            try await Self.answering { try await requests.state(of: attachment.id, byteCount: attachment.byteCount, tenant: tenant, user: user) }
        }
    }

    func sendPiece(_ piece: Data, of attachment: Attachment, at offset: Int64) async throws -> AttachmentUploadState? {
        let requests = try requireAttachments()
        return try await send("attachment piece") {
            do {
                return try await Self.answering {
                    try await requests.append(Array(piece), to: attachment.id, byteCount: attachment.byteCount, at: offset, tenant: tenant, user: user)
                }
            } catch let refusal as AttachmentRefusal where refusal.kind == .offsetMismatch {
                return nil
            }
        }
    }

    func range(of id: String, offset: Int64, length: Int) async throws -> AttachmentRange {
        let requests = try requireAttachments()
        return try await send("attachment range") {
            do {
                return .bytes(Data(try await requests.read(id, offset: offset, length: Int64(length), tenant: tenant, user: user)))
            } catch let refusal as AttachmentRefusal where refusal.kind == .notFound {
                return .notUploaded
            } catch let refusal as AttachmentRefusal where refusal.kind == .rangeNotSatisfiable {
                return .endsBeforeOffset
            } catch let refusal as AttachmentRefusal {
                throw Self.refused(refusal)
            }
        }
    }

    private func requireAttachments() throws -> AttachmentRequests {
        guard let attachments else { throw BoutiqueError.syncUnavailable(reason: "the simulated server keeps no attachments") }
        return attachments
    }

    /// `call`'s answer, with a refusal thrown as the HTTP transport throws its status: an offset
    /// mismatch (409) as it is, for the caller; a 404 to an upload's request as a server without
    /// attachments; any other as a ``SyncRefusal`` of the status's reason.
    private static func answering<Answer>(_ call: () async throws -> Answer) async throws -> Answer {
        do {
            return try await call()
        } catch let refusal as AttachmentRefusal where refusal.kind == .notFound {
            throw BoutiqueError.syncUnavailable(reason: "the server keeps no attachments (404: \(refusal.reason))")
        } catch let refusal as AttachmentRefusal where refusal.kind != .offsetMismatch {
            throw refused(refusal)
        }
    }

    /// A refusal as the HTTP transport throws its status.
    private static func refused(_ refusal: AttachmentRefusal) -> SyncRefusal {
        SyncRefusal(reason: SyncRefusal.Reason(httpStatus: refusal.kind.httpStatus, code: nil), message: refusal.reason)
    }
}
