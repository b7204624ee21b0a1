import Foundation

/// Moves one attachment's bytes between a database's attachments folder and a sync server (over HTTP,
/// or any ``AttachmentChannel``), a piece at a time, each piece from where the other side stands, so that a killed process or a
/// lost connection costs at most the piece in flight.
///
/// ```swift
/// let transfer = try AttachmentTransfer(transport: HTTPSyncTransport.http(url, token: token), attachments: db.attachments)
/// let sent = try await transfer.upload(photo.image)       // resumes from the server's offset
/// let received = try await transfer.download(photo.image) // resumes from the bytes already here
/// ```
///
/// An upload reads the stored file and sends it in pieces of ``pieceBytes`` (`PUT
/// /v1/attachments/ID?size=N&offset=O`); the server checks the whole against the id. A download asks
/// for ranges (`GET /v1/attachments/ID/bytes?offset=O&length=L`), the next while the last is written,
/// and appends them to a `.resume-` file of the folder, hashing them as they go; the file becomes the
/// attachment only once its SHA-256 is checked. Memory holds one piece of an upload and two ranges of
/// a download, whatever the size of the file.
package struct AttachmentTransfer: Sendable {
    /// The most bytes one request carries.
    package static let pieceBytes = 4 << 20

    private let channel: any AttachmentChannel
    /// The folder the bytes move from and to.
    let folder: AttachmentFolder
    private let database: DatabaseActor
    /// The database's attachments, listed by ``downloadMissing(upTo:room:progress:)``.
    let attachments: AttachmentStore
    /// The server's address, under which its confirmations are recorded (``ConfirmedAttachments``).
    var server: String { channel.attachmentServerAddress }

    /// A transfer between the folder of `attachments` and the server `channel` reaches.
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/invalidArgument(_:)`` for a database with no folder (a
    ///   SQLite in-memory URI).
    package init(transport channel: any AttachmentChannel, attachments: AttachmentStore) throws {
        guard let folder = attachments.folderURL else {
            throw BoutiqueError.invalidArgument("a SQLite in-memory database has no attachments folder to transfer from or to")
        }
        self.channel = channel
        self.folder = AttachmentFolder(path: folder.path)
        self.database = attachments.database
        self.attachments = attachments
    }

    /// What the server holds of `attachment`.
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/syncUnavailable(reason:)`` when the server keeps no
    ///   attachments (404: started without them, or older than them), as for a server out of reach:
    ///   the upload waits for one that does.
    package func serverState(of attachment: Attachment) async throws -> AttachmentUploadState {
        try await channel.uploadState(of: attachment).checked(for: attachment)
    }

    /// Sends the bytes of `attachment` the server does not hold yet, and returns how many were sent.
    /// `progress` is told the bytes the server holds after each piece.
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/attachmentNotFound(id:)`` when the bytes are not on this
    ///   device, a ``SyncRefusal`` when the server refuses them (413: too large or past the quota; 400:
    ///   not the id's bytes), ``/BoutiqueDB/BoutiqueError/syncUnavailable(reason:)`` when it keeps no
    ///   attachments or cannot be reached.
    @discardableResult
    package func upload(_ attachment: Attachment, progress: @Sendable (Int64) -> Void = { _ in }) async throws -> Int64 {
        let folder = self.folder
        guard folder.storedSize(of: attachment.id) == attachment.byteCount else { throw BoutiqueError.attachmentNotFound(id: attachment.id) }
        var state = try await serverState(of: attachment)
        progress(state.offset)
        var sent: Int64 = 0
        while !state.isUploaded {
            let offset = state.offset
            let length = Int(min(Int64(Self.pieceBytes), attachment.byteCount - offset))
            let piece = try await BlockingFileWork.run { _ in try folder.readRange(of: attachment.id, offset: offset, length: length) }
            guard piece.count == length else {
                throw BoutiqueError.attachmentDamaged(id: attachment.id, reason: "the stored file ends at \(offset + Int64(piece.count))")
            }
            let answer = try await channel.sendPiece(Data(piece), of: attachment, at: offset)
            sent += Int64(piece.count)
            // The server stands elsewhere (a piece whose answer was lost arrived after all): ask.
            if let answer { state = try answer.checked(for: attachment) } else { state = try await serverState(of: attachment) }
            progress(state.offset)
        }
        return sent
    }

    /// Fetches the bytes of `attachment` this device does not hold yet into its folder, checked against
    /// the id, and returns how many were received. `progress` is told the bytes held after each range.
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/attachmentNotUploaded(id:)`` when the server does not hold
    ///   them whole yet, ``/BoutiqueDB/BoutiqueError/attachmentDamaged(id:reason:)`` when what came is
    ///   not them (nothing is kept; the next fetch starts again).
    @discardableResult
    package func download(_ attachment: Attachment, progress: @Sendable (Int64) -> Void = { _ in }) async throws -> Int64 {
        let folder = self.folder
        let (id, size) = (attachment.id, attachment.byteCount)
        if folder.storedSize(of: id) == size {
            folder.markUsed(id)
            return 0
        }
        let receiving = try await BlockingFileWork.run { _ in try folder.receiving(id, byteCount: size) }
        var held = receiving.held
        progress(held)
        var received: Int64 = 0
        // The range that follows is asked for while the last is written and hashed, so that the
        // network and the disk work at once; memory holds two ranges. When the transfer stands
        // elsewhere after a write (another process appended), the range asked for is not used: it is
        // cancelled as the pass ends, and the next pass asks from where the file stands.
        var next: AttachmentRange?
        while held < size {
            try Task.checkCancellation()
            let answer: AttachmentRange
            if let next { answer = next } else { answer = try await channel.range(of: id, offset: held, length: Self.pieceBytes) }
            next = nil
            let data: Data
            switch answer {
            case .bytes(let bytes): data = bytes
            case .notUploaded: throw BoutiqueError.attachmentNotUploaded(id: id)
            case .endsBeforeOffset:
                // The server's file is shorter than the attachment says: what is held here is kept
                // out of use, and the next fetch starts again.
                folder.discardResumed(id, byteCount: size)
                throw BoutiqueError.attachmentDamaged(id: id, reason: "the server's copy ends before byte \(held)")
            }
            guard !data.isEmpty, Int64(data.count) <= size - held else {
                folder.discardResumed(id, byteCount: size)
                throw BoutiqueError.attachmentDamaged(id: id, reason: "the server sent \(data.count) bytes at offset \(held) of \(size)")
            }
            received += Int64(data.count)
            let (offset, end) = (held, held + Int64(data.count))
            async let following = end < size ? channel.range(of: id, offset: end, length: Self.pieceBytes) : nil
            held = try await BlockingFileWork.run { _ in try data.withUnsafeBytes { try receiving.append($0, at: offset) } }
            progress(held)
            if held == end, end < size { next = try await following }
        }
        // Checked with the hash of the pieces as they were written, or, when another process appended
        // some of them, with the whole file's.
        try await BlockingFileWork.run { _ in
            if size == 0 {
                _ = try folder.store(.memory(Data()), contentType: attachment.contentType, isCancelled: { false })
            } else {
                try receiving.publish()
            }
        }
        // The server holds them whole: they need no upload from here, and may leave with the rows or
        // past a budget.
        try await database.write { [server] conn in
            try AttachmentUploadQueue.confirm(id, conn)
            try ConfirmedAttachments.record(attachment, server: server, conn)
        }
        return received
    }
}
