/// Where an attachment's bytes are, as far as this device knows.
///
/// ```swift
/// switch try await db.attachments.state(of: photo.image) {
/// case .local: showImage(try await db.attachments.fileURL(for: photo.image))
/// case .missing, .damaged: showPlaceholder()
/// }
/// ```
///
/// Today bytes are either stored on this device or not; sync, when it moves bytes between devices,
/// adds the states of a transfer (waiting to upload, uploaded, downloading) beside these.
public enum AttachmentState: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The bytes are stored on this device, whole.
    case local
    /// The bytes are not on this device.
    case missing
    /// A file is stored under the attachment's id, but not of its size: it was damaged or changed
    /// outside BoutiqueDB. Storing the right bytes again replaces it.
    case damaged

    public var description: String { rawValue }
}
