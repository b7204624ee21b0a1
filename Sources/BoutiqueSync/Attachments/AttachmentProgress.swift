/// How far one attachment's transfer has come: what ``SyncAttachments/progress`` reports after each
/// piece or range.
///
/// ```swift
/// for await p in sync.attachments.progress where p.id == photo.image.id {
///     progressView.fraction = Double(p.bytesDone) / Double(max(p.byteCount, 1))
/// }
/// ```
public struct AttachmentProgress: Sendable, Hashable {
    /// Which way the bytes go.
    public enum Direction: String, Sendable, Hashable {
        /// From this device to the server.
        case upload
        /// From the server to this device.
        case download
    }

    /// The attachment's id.
    public var id: String
    /// Which way the bytes go.
    public var direction: Direction
    /// The bytes the receiving side holds so far (a resumed transfer starts where it stopped).
    public var bytesDone: Int64
    /// The attachment's size.
    public var byteCount: Int64

    /// A progress report (see the properties).
    public init(id: String, direction: Direction, bytesDone: Int64, byteCount: Int64) {
        self.id = id
        self.direction = direction
        self.bytesDone = bytesDone
        self.byteCount = byteCount
    }
}
