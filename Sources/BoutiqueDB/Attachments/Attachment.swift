import Foundation

/// A file held by a row: the SHA-256 of its bytes, their size and their content type.
///
/// ```swift
/// @Table struct Photo: Sendable {
///     @Column(primaryKey: true) let id: UUID
///     var caption: String
///     var image: Attachment
///     var thumbnail: Attachment?
/// }
///
/// let image = try await db.attachments.store(jpegData, contentType: "image/jpeg")
/// try await db.write { conn in
///     try Photo.insert { Photo(id: UUID(), caption: "Beach", image: image) }.execute(conn)
/// }
/// ```
///
/// The value is only a reference: the bytes live in the database's ``AttachmentStore`` (a folder beside
/// the file), named by ``id``, written once and shared by every row that points at the same bytes. A
/// row stores the value as JSON text with its keys sorted,
/// `{"byteCount":5,"contentType":"text/plain","id":"2cf24dba…"}`, so equal values are equal text and a
/// column compares and indexes as text; SQL reads its fields with `json_extract(image, '$.byteCount')`.
///
/// Values come from ``AttachmentStore/store(_:contentType:)`` and ``AttachmentStore/store(contentsOf:contentType:)``,
/// or from a row. Decoding refuses an ``id`` that is not 64 lowercase hexadecimal digits, so a value
/// read from a file or the network can never name a path outside the attachments folder.
public struct Attachment: Codable, Hashable, Sendable {
    /// The SHA-256 of the bytes, as 64 lowercase hexadecimal digits: the name of their file.
    public let id: String
    /// How many bytes there are.
    public let byteCount: Int64
    /// Their media type, as the app gave it (`image/jpeg`).
    public let contentType: String

    /// A reference to the bytes whose SHA-256 is `id`.
    ///
    /// ```swift
    /// let attachment = try Attachment(id: digest, byteCount: 1_024, contentType: "image/png")
    /// ```
    ///
    /// - Throws: ``BoutiqueError/invalidArgument(_:)`` when `id` is not 64 lowercase hexadecimal digits
    ///   or `byteCount` is negative.
    public init(id: String, byteCount: Int64, contentType: String) throws {
        try Self.validate(id: id)
        guard byteCount >= 0 else { throw BoutiqueError.invalidArgument("an attachment's byte count cannot be negative: \(byteCount)") }
        self.id = id
        self.byteCount = byteCount
        self.contentType = contentType
    }

    /// A value made by the store from bytes it just hashed.
    init(validID id: String, byteCount: Int64, contentType: String) {
        self.id = id
        self.byteCount = byteCount
        self.contentType = contentType
    }

    private enum CodingKeys: String, CodingKey { case id, byteCount, contentType }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let id = try container.decode(String.self, forKey: .id)
        guard Self.isValidID(id) else {
            throw DecodingError.dataCorruptedError(
                forKey: .id, in: container, debugDescription: "not an attachment id (64 lowercase hexadecimal digits): \(id)")
        }
        let byteCount = try container.decode(Int64.self, forKey: .byteCount)
        guard byteCount >= 0 else {
            throw DecodingError.dataCorruptedError(forKey: .byteCount, in: container, debugDescription: "negative byte count")
        }
        self.init(validID: id, byteCount: byteCount, contentType: try container.decode(String.self, forKey: .contentType))
    }

    /// Whether `id` has the form of an attachment id: 64 lowercase hexadecimal digits, nothing else.
    ///
    /// ```swift
    /// Attachment.isValidID("../../etc/passwd")   // false
    /// ```
    public static func isValidID(_ id: String) -> Bool {
        let utf8 = id.utf8
        return utf8.count == 64 && utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// Throws ``BoutiqueError/invalidArgument(_:)`` unless `id` ``isValidID(_:)``.
    static func validate(id: String) throws(BoutiqueError) {
        guard isValidID(id) else {
            let shown = id.count > 80 ? String(id.prefix(80)) + "…" : id
            throw .invalidArgument(
                "'\(shown)' is not an attachment id (the SHA-256 of the bytes as 64 lowercase hexadecimal digits)")
        }
    }
}
