import BoutiqueDB

/// What one pass over a database's missing attachments did (``AttachmentTransfer/downloadMissing(upTo:progress:)``).
package struct MissingAttachments: Sendable {
    /// How many attachments came, and their bytes.
    package var fetched = 0
    package var bytes: Int64 = 0
    /// The ids the server does not hold whole yet: their uploader has not finished.
    package var notUploaded: [String] = []
    /// Those that could not be fetched, with why: the server refused them or sent other bytes, the
    /// connection dropped.
    package var failed: [(id: String, error: any Error)] = []
    /// The ids left for on demand because they did not fit the room given.
    package var overRoom: [String] = []
}

extension AttachmentTransfer {
    /// Downloads every attachment a row of the database points at that is not in its folder, up to
    /// `maxBytes` each and `room` in all, one after the other: one that cannot be fetched is noted and
    /// the others go on. `progress` hears each one's bytes held so far.
    ///
    /// - Throws: `CancellationError` when the task is cancelled (what came stays), and the errors of
    ///   listing the database's attachments.
    package func downloadMissing(
        upTo maxBytes: Int64 = .max, room: Int64 = .max,
        progress: @escaping @Sendable (Attachment, Int64) -> Void = { _, _ in }
    ) async throws -> MissingAttachments {
        var round = MissingAttachments()
        var room = room
        for entry in try await attachments.list() where entry.isReferenced && entry.state != .local && entry.byteCount <= maxBytes {
            guard entry.byteCount <= room else {
                round.overRoom.append(entry.id)
                continue
            }
            do {
                let attachment = try Attachment(id: entry.id, byteCount: entry.byteCount, contentType: entry.contentType ?? "application/octet-stream")
                round.bytes += try await download(attachment) { held in progress(attachment, held) }
                round.fetched += 1
                room -= entry.byteCount
            } catch BoutiqueError.attachmentNotUploaded(let id) {
                round.notUploaded.append(id)
            } catch {
                try Task.checkCancellation()
                round.failed.append((entry.id, error))
            }
        }
        try Task.checkCancellation()
        return round
    }
}
