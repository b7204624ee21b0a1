import BoutiqueSQLite
import Foundation

extension UUID: QueryBindable {
    /// Stored as lowercase text (`"0f8fad5b-d9cb-469f-a165-70867728950e"`), read case-insensitively.
    /// A 16-byte blob is accepted too, so a column can move between representations.
    public static func decode(from decoder: inout RowDecoder) throws(BoutiqueError) -> UUID {
        switch decoder.currentStorageClass {
        case .text:
            let text = String(decoding: decoder.statement.textBytes(at: decoder.columnIndex), as: UTF8.self)
            guard let uuid = UUID(uuidString: text) else { throw decoder.failure(expected: "UUID") }
            decoder.columnIndex += 1
            return uuid
        case .blob:
            return try BytesRepresentation.decode(from: &decoder)
        default:
            throw decoder.failure(expected: "UUID")
        }
    }

    public static func encode(_ output: UUID) -> DatabaseValue { .text(output.uuidString.lowercased()) }

    public static var sqlType: SQLType { .text }

    /// Its text, from the text or the 16 bytes a UUID column holds.
    public static var jsonValueForm: JSONValueForm { .uuidBytes }

    /// Stores a UUID as upper-case text (`"0F8FAD5B-D9CB-469F-A165-70867728950E"`), as Foundation's
    /// `uuidString` and `JSONEncoder` write it, read case-insensitively. It is how a UUID read out of a
    /// JSON document (`jsonExtract(\.externalID)`) is read and compared: a UUID bound beside it is
    /// upper case too.
    public enum UppercaseRepresentation: QueryRepresentable {
        public static func decode(from decoder: inout RowDecoder) throws(BoutiqueError) -> UUID {
            try UUID.decode(from: &decoder)
        }

        public static func encode(_ output: UUID) -> DatabaseValue { .text(output.uuidString) }

        public static var sqlType: SQLType { .text }

        /// Its upper-case text, as `Codable` writes a UUID.
        public static var jsonValueForm: JSONValueForm { .uuidBytes }
    }

    /// StructuredQueries' name for ``UppercaseRepresentation``:
    /// `@Column(as: UUID.UppercasedRepresentation.self) let id: UUID`.
    public typealias UppercasedRepresentation = UppercaseRepresentation

    /// Stores a UUID as a 16-byte blob: `@Column(as: UUID.BytesRepresentation.self) let id: UUID`.
    public enum BytesRepresentation: QueryRepresentable {
        public static func decode(from decoder: inout RowDecoder) throws(BoutiqueError) -> UUID {
            guard decoder.currentStorageClass == .blob else { throw decoder.failure(expected: "UUID (16-byte blob)") }
            let bytes = decoder.statement.blob(at: decoder.columnIndex)
            guard bytes.count == 16 else {
                throw decoder.failure(expected: "UUID (16-byte blob)", found: "BLOB of \(bytes.count) bytes")
            }
            decoder.columnIndex += 1
            return UUID(uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
        }

        public static func encode(_ output: UUID) -> DatabaseValue {
            withUnsafeBytes(of: output.uuid) { .blob(Array($0)) }
        }

        public static var sqlType: SQLType { .blob }

        /// Its text, as `Codable` reads a UUID.
        public static var jsonValueForm: JSONValueForm { .uuidBytes }
    }
}
