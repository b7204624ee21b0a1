/// One attachment a database knows of: referenced by a row, stored in its folder, or both.
///
/// ```swift
/// for entry in try await db.attachments.list() {
///     print(entry.id, entry.byteCount, entry.contentType ?? "-", entry.state)
/// }
/// ```
public struct AttachmentEntry: Sendable, Hashable {
    /// The SHA-256 of the bytes (64 lowercase hexadecimal digits).
    public let id: String
    /// The byte count a row gives, or the stored file's size when no row points at the bytes.
    public let byteCount: Int64
    /// The content type a row gives; nil for bytes no row points at (the folder keeps bytes only).
    public let contentType: String?
    /// Whether the bytes are on this device.
    public let state: AttachmentState
    /// Whether a row of the database points at the bytes.
    public let isReferenced: Bool

    /// An entry for the attachment `id` (see the properties).
    public init(id: String, byteCount: Int64, contentType: String?, state: AttachmentState, isReferenced: Bool) {
        self.id = id
        self.byteCount = byteCount
        self.contentType = contentType
        self.state = state
        self.isReferenced = isReferenced
    }
}
