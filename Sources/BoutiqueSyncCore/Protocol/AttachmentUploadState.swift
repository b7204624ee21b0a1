/// What the server holds of an attachment's bytes: the answer to `GET /v1/attachments/ID?size=N` and to
/// each `PUT` of a piece.
///
/// ```swift
/// let state = try SyncJSON.decoder().decode(AttachmentUploadState.self, from: body)
/// if !state.isUploaded { sendPiece(from: state.offset) }   // a killed upload resumes where it stopped
/// ```
///
/// `offset` is how many bytes of the upload in progress the server holds, `byteCount` once the
/// bytes are whole: an upload sends its next piece from there.
public struct AttachmentUploadState: Codable, Hashable, Sendable {
    /// The attachment's id (the SHA-256 of its bytes, 64 lowercase hexadecimal digits).
    public var id: String
    /// Its size.
    public var byteCount: Int64
    /// How many of its bytes the server holds, from the start.
    public var offset: Int64
    /// Whether the server holds them all, checked against the id.
    public var isUploaded: Bool

    /// A state (see the properties).
    public init(id: String, byteCount: Int64, offset: Int64, isUploaded: Bool) {
        self.id = id
        self.byteCount = byteCount
        self.offset = offset
        self.isUploaded = isUploaded
    }
}
