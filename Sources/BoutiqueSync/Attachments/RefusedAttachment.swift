/// An attachment whose upload the server refused, and why: ``SyncAttachments/refused()``.
///
/// ```swift
/// for refused in try await sync.attachments.refused() where refused.refusal.reason == .tooLarge {
///     print("\(refused.attachment.id) is not uploaded: \(refused.refusal.message)")
/// }
/// ```
///
/// The server's answer for these bytes would not change by sending them again (larger than it takes,
/// past the tenant's quota, not the id's bytes), so sync keeps the entry, sends it no more, and goes on
/// with the others; the bytes stay on this device. ``SyncStatus/attachmentsRefused`` counts them.
public struct RefusedAttachment: Sendable, Hashable {
    /// The attachment the server refused.
    public var attachment: Attachment
    /// The server's refusal: ``SyncRefusal/Reason/tooLarge`` (HTTP 413) or ``SyncRefusal/Reason/invalid``
    /// (HTTP 400), with its message.
    public var refusal: SyncRefusal

    /// `attachment`, refused with `refusal`.
    public init(attachment: Attachment, refusal: SyncRefusal) {
        self.attachment = attachment
        self.refusal = refusal
    }
}
