/// Why a ``SyncAttachmentStore`` refused a request, with the HTTP status it is answered with.
///
/// ```swift
/// do { _ = try await attachments.append(piece, to: id, byteCount: size, at: offset, tenant: tenant, uploader: user) }
/// catch let refusal as AttachmentRefusal where refusal.kind == .offsetMismatch { resume(from: refusal.heldOffset ?? 0) }
/// ```
public struct AttachmentRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of refusal.
    public enum Kind: String, Hashable, Sendable {
        /// Not an id, a size or offset out of range, a piece running past the size announced, bytes
        /// whose SHA-256 is not the id (400).
        case invalid
        /// Larger than the server takes, or past the tenant's quota (413).
        case tooLarge
        /// No such attachment for this tenant, or not uploaded whole yet (404).
        case notFound = "not-found"
        /// The piece does not start where the upload stands (409): ``heldOffset`` says where.
        case offsetMismatch = "offset-mismatch"
        /// A range that starts past the attachment's end (416).
        case rangeNotSatisfiable = "range-not-satisfiable"

        /// The HTTP status the refusal is answered with.
        public var httpStatus: Int {
            switch self {
            case .invalid: 400
            case .tooLarge: 413
            case .notFound: 404
            case .offsetMismatch: 409
            case .rangeNotSatisfiable: 416
            }
        }
    }

    /// The kind of refusal.
    public var kind: Kind
    /// What was wrong, for a person.
    public var reason: String
    /// Where the upload stands, for ``Kind/offsetMismatch``.
    public var heldOffset: Int64?

    /// A refusal of `kind`.
    public init(_ kind: Kind, _ reason: String, heldOffset: Int64? = nil) {
        self.kind = kind
        self.reason = reason
        self.heldOffset = heldOffset
    }

    public var description: String { "\(kind.rawValue): \(reason)" }
}
