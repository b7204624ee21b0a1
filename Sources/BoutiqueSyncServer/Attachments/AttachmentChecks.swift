import BoutiqueDB

/// The checks every ``SyncAttachmentStore`` makes before it stores or reads anything, in the same
/// words whatever keeps the bytes.
enum AttachmentChecks {
    /// Refuses an id that is not one and a negative size.
    static func check(id: String, byteCount: Int64) throws {
        guard Attachment.isValidID(id) else {
            throw AttachmentRefusal(.invalid, "'\(id.prefix(80))' is not an attachment id (the SHA-256 of its bytes as 64 lowercase hexadecimal digits)")
        }
        guard byteCount >= 0 else { throw AttachmentRefusal(.invalid, "an attachment's size cannot be negative: \(byteCount)") }
    }

    /// Refuses a piece of `count` bytes at `offset` of an upload of `id` that the store cannot take:
    /// an attachment past the size limit, an offset outside it, a piece running past its end.
    static func check(piece count: Int, of id: String, byteCount: Int64, at offset: Int64, maximumAttachmentBytes: Int64?) throws {
        try check(id: id, byteCount: byteCount)
        if let maximumAttachmentBytes, byteCount > maximumAttachmentBytes {
            throw AttachmentRefusal(.tooLarge, "the attachment has \(byteCount) bytes; this server takes at most \(maximumAttachmentBytes)")
        }
        guard offset >= 0, offset <= byteCount else {
            throw AttachmentRefusal(.invalid, "offset \(offset) is outside the attachment's \(byteCount) bytes")
        }
        guard Int64(count) <= byteCount - offset else {
            throw AttachmentRefusal(
                .invalid, "the piece of \(count) bytes at offset \(offset) runs past the \(byteCount) bytes announced; nothing was stored")
        }
    }
}
