import Foundation

/// The JSON the protocol's messages travel in over HTTP, the same on devices and the server.
///
/// ```swift
/// let body = try SyncJSON.encoder().encode(request)
/// let response = try SyncJSON.decoder().decode(PushResponse.self, from: data)
/// ```
///
/// Integers stay integers (a 64-bit digest or clock reading round-trips exactly); values carry their
/// SQLite storage class, blobs in base64 and reals by their bit pattern.
public enum SyncJSON {
    /// The media type of a message body.
    public static let contentType = "application/json"

    /// An encoder for the protocol's messages.
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }

    /// A decoder for the protocol's messages.
    public static func decoder() -> JSONDecoder { JSONDecoder() }
}

/// The body of an HTTP reply that is not a protocol message: why a request was refused.
///
/// ```json
/// {"error": {"status": 401, "code": "unauthorized", "reason": "the token expired at 2026-12-01T10:00:00Z"}}
/// ```
public struct SyncHTTPErrorBody: Hashable, Sendable, Codable {
    /// The refusal.
    public struct Detail: Hashable, Sendable, Codable {
        /// The HTTP status, repeated.
        public var status: Int
        /// A stable word for the kind of refusal: a ``SyncRefusal/Reason``'s raw value (`invalid`,
        /// `unauthorized`, `forbidden`, `tooLarge`, …) for the protocol's refusals, or, for answers
        /// below the protocol, `not-found`, `method-not-allowed`, `not-implemented` or `unavailable`.
        public var code: String
        /// What was wrong, for a person.
        public var reason: String
    }

    /// The refusal.
    public var error: Detail

    /// A refusal with `status`, `code` and `reason`.
    public init(status: Int, code: String, reason: String) {
        error = Detail(status: status, code: code, reason: reason)
    }
}
