import Foundation

/// A JSON document read into values, for the parts of a JSON Web Token and of a JWK Set, whose
/// members are only known by name at run time (the tenant claim is the operator's choice).
///
/// ```swift
/// let claims = try JSONValue.parse(payload)
/// let subject = claims["sub"]?.string
/// ```
enum JSONValue: Decodable, Sendable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case array([JSONValue])
    case object([String: JSONValue])
    case null

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Bool before Double: JSONDecoder reads `true` as neither a number nor a string, and a number
        // never as a Bool, so the order only saves a failed attempt.
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// The JSON object in `bytes`, or `nil` when they are not one.
    static func object(_ bytes: [UInt8]) -> [String: JSONValue]? {
        guard case .object(let members)? = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes)) else { return nil }
        return members
    }

    var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    var number: Double? {
        if case .number(let number) = self { return number }
        return nil
    }
}
