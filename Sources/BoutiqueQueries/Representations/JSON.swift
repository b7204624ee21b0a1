import BoutiqueSQLite
import Foundation

/// Stores any `Codable` value as JSON text: `@Column(as: JSONRepresentation<[String]>.self) var tags: [String]`.
///
/// Keys are sorted so that equal values are stored as equal text.
public enum JSONRepresentation<Value: Codable>: QueryRepresentable {
    public typealias QueryOutput = Value

    public static func decode(from decoder: inout RowDecoder) throws(BoutiqueError) -> Value {
        guard decoder.currentStorageClass == .text || decoder.currentStorageClass == .blob else {
            throw decoder.failure(expected: "\(Value.self) (JSON)")
        }
        let bytes = decoder.statement.textBytes(at: decoder.columnIndex)
        do {
            let value = try JSONCoding.decoder.decode(Value.self, from: Data(bytes))
            decoder.columnIndex += 1
            return value
        } catch {
            throw decoder.failure(expected: "\(Value.self) (JSON)", found: "malformed JSON: \(error)")
        }
    }

    public static func encode(_ output: Value) -> DatabaseValue {
        // Encoding fails only for values JSON cannot hold (e.g. a non-finite Double): store NULL then,
        // and the NOT NULL constraint of a non-optional column reports it.
        JSONCoding.text(of: output).map(DatabaseValue.text) ?? .null
    }

    public static var sqlType: SQLType { .text }

    /// The stored JSON itself, not a string holding it.
    public static var jsonValueForm: JSONValueForm { .json }
}
