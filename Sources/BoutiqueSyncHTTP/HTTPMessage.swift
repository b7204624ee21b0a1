/// An HTTP request as the sync server's handlers see it: read whole before a handler runs.
struct HTTPRequest: Sendable {
    /// The query arguments a handler may read (the attachment endpoints' size, offset and length);
    /// others are not kept.
    static let queryArgumentNames = ["size", "offset", "length"]

    /// `GET`, `POST`, …
    var method: String
    /// The path, without the query string.
    var path: String
    /// The query's arguments the protocol reads (``queryArgumentNames``), as `name=value&…`; empty for none.
    var query: String = ""
    /// The `Authorization` header, when there is one.
    var authorization: String?
    /// The body.
    var body: [UInt8]
    /// The address the request came from (a reverse proxy's, behind one).
    var clientAddress: String = ""
    /// The id its response carries in `X-Request-Id` and its log lines name.
    var requestID: String = ""
}

/// An HTTP response: a status and a body of one media type.
struct HTTPResponse: Sendable {
    var status: Int
    var body: [UInt8]
    var contentType: String = SyncJSON.contentType
    /// Seconds for a `Retry-After` header, 0 for none.
    var retryAfterSeconds: Int = 0
    /// Whose request it answered, from its verified token, for the request log: `nil` before one.
    var tenant: String? = nil
    var user: String? = nil
    /// Whether its request changed nothing, so that a 503 may take this answer's place when the answers
    /// waiting to be read already take their whole budget (``QueuedResponseBytes``): the client asks
    /// again and loses nothing.
    var repeatable = false
    /// The error body's code when this answer refuses the request, for the refusals' metric.
    var refusalCode: String? = nil

    /// The same answer, marked ``repeatable``.
    func markedRepeatable() -> HTTPResponse {
        var response = self
        response.repeatable = true
        return response
    }

    /// A refusal of the protocol: the reason's status, with the reason's raw value as the error body's
    /// code (``/BoutiqueSync/SyncRefusal/Reason/httpStatus``), which the device reads back.
    static func refusal(_ reason: SyncRefusal.Reason, _ message: String, retryAfterSeconds: Int = 0) -> HTTPResponse {
        error(reason.httpStatus, reason.rawValue, message, retryAfterSeconds: retryAfterSeconds)
    }

    /// A JSON error body (``/BoutiqueSync/SyncHTTPErrorBody``) with `status`: for answers below the
    /// protocol (no such path, a server shutting down); the protocol's refusals are ``refusal(_:_:retryAfterSeconds:)``.
    static func error(_ status: Int, _ code: String, _ reason: String, retryAfterSeconds: Int = 0) -> HTTPResponse {
        let body = (try? SyncJSON.encoder().encode(SyncHTTPErrorBody(status: status, code: code, reason: reason))) ?? .init()
        return HTTPResponse(status: status, body: Array(body), retryAfterSeconds: retryAfterSeconds, refusalCode: code)
    }
}
