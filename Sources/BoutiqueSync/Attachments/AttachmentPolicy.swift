/// Which attachments' bytes a device fetches without being asked (``SyncOptions/attachments``).
///
/// ```swift
/// let options = SyncOptions(attachments: .eager(maxBytes: 5_000_000))   // photos yes, videos on demand
/// ```
public enum AttachmentPolicy: Sendable, Hashable {
    /// Only when the app asks (``SyncAttachments/fetch(_:waitingForUpload:)``): the default.
    case onDemand
    /// Every attachment a row this device holds points at, up to `maxBytes` each, after each pull;
    /// larger ones on demand.
    case eager(maxBytes: Int64)
}
