import BoutiqueDB
import BoutiqueSync
import Foundation

/// What `boutique sync` does with a file's attachments after its rows: uploads the bytes of every
/// attachment a row points at that the server does not hold whole (from where the server stands, so
/// that a run killed half-way is resumed by the next), and with `--attachments eager` downloads those
/// a row points at that are not in the file's folder.
///
/// ```swift
/// let round = try AttachmentRound(database: db, transport: .http(server, token: token))
/// let uploaded = try await round.upload()          // (attachments, bytes sent, refused)
/// ```
struct AttachmentRound {
    let database: BoutiqueDB
    let transfer: AttachmentTransfer

    init(database: BoutiqueDB, transport: HTTPSyncTransport) throws {
        self.database = database
        transfer = try AttachmentTransfer(transport: transport, attachments: database.attachments)
    }

    /// Uploads what the server lacks; returns how many attachments took bytes, how many bytes were
    /// sent, and the attachments the server refused with its reason (larger than it takes, past the
    /// tenant's quota, not the id's bytes): the same bytes would be refused again, so the others go on.
    func upload() async throws -> (attachments: Int, bytes: Int64, refused: [(id: String, message: String)]) {
        var count = 0
        var sent: Int64 = 0
        var refused: [(id: String, message: String)] = []
        for entry in try await database.attachments.list() where entry.isReferenced && entry.state == .local {
            do {
                let bytes = try await transfer.upload(try attachment(of: entry))
                if bytes > 0 || entry.byteCount == 0 { count += 1 }
                sent += bytes
            } catch let refusal as SyncRefusal where refusal.reason == .tooLarge || refusal.reason == .invalid {
                refused.append((entry.id, refusal.message))
            }
        }
        return (count, sent, refused)
    }

    /// Downloads what a row points at and the folder lacks (see
    /// `AttachmentTransfer.downloadMissing`): one that cannot be fetched is noted and the others go on.
    func download() async throws -> MissingAttachments {
        try await transfer.downloadMissing()
    }

    private func attachment(of entry: AttachmentEntry) throws -> Attachment {
        try Attachment(id: entry.id, byteCount: entry.byteCount, contentType: entry.contentType ?? "application/octet-stream")
    }
}
