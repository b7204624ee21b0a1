import Foundation

/// The attachment endpoints: an upload's state, a piece of an upload, a range of an uploaded
/// attachment. Each request carries at most one piece or range, so that the server's memory holds a
/// piece per request (``SyncHTTPOptions/maximumBodyBytes`` bounds it), never a whole attachment.
///
/// | Request | Answer |
/// |---|---|
/// | `GET /v1/attachments/ID?size=N` | 200 ``/BoutiqueSync/AttachmentUploadState`` |
/// | `PUT /v1/attachments/ID?size=N&offset=O` (the bytes from O) | 200 ``/BoutiqueSync/AttachmentUploadState`` |
/// | `GET /v1/attachments/ID/bytes?offset=O&length=L` | 200 the bytes from O, at most L and at most 8 MiB |
extension SyncHTTPRoutes {
    /// The answer to an authenticated request under `/v1/attachments/`: `parts` are the path's parts
    /// after it. The rights are ``/BoutiqueSyncServer/AttachmentRequests``'s; this maps them to HTTP.
    func attachment(_ request: HTTPRequest, parts: ArraySlice<String>, claims: SyncToken) async -> HTTPResponse {
        guard let attachments else {
            return .error(404, "not-found", "this server keeps no attachments")
        }
        guard let id = parts.first else { return .error(404, "not-found", "name the attachment: /v1/attachments/ID") }
        let requests = AttachmentRequests(server: server, bytes: attachments)
        let query = Self.queryItems(request.query)
        do {
            switch (request.method, parts.count) {
            case ("GET", 1):
                let size = try Self.number("size", in: query)
                return try encodeState(try await requests.state(of: id, byteCount: size, tenant: claims.tenant, user: claims.user))
            case ("PUT", 1):
                let size = try Self.number("size", in: query)
                let offset = try Self.number("offset", in: query)
                return try encodeState(
                    try await requests.append(request.body, to: id, byteCount: size, at: offset, tenant: claims.tenant, user: claims.user))
            case ("GET", 2) where parts.last == "bytes":
                let offset = try Self.number("offset", in: query)
                let length = try Self.number("length", in: query)
                let range = try await requests.read(id, offset: offset, length: length, tenant: claims.tenant, user: claims.user)
                // Bytes a client can ask for again: when the answers waiting to be read leave no room
                // for them, a 503 takes their place.
                return HTTPResponse(status: 200, body: range, contentType: "application/octet-stream").markedRepeatable()
            default:
                guard parts.count == 1 || (parts.count == 2 && parts.last == "bytes") else {
                    return .error(404, "not-found", "no such endpoint: \(request.path.prefix(200))")
                }
                return .error(405, "method-not-allowed", "\(request.method.prefix(20)) is not allowed on \(request.path.prefix(200))")
            }
        } catch let refusal as AttachmentRefusal {
            return .error(refusal.kind.httpStatus, refusal.kind == .tooLarge ? SyncRefusal.Reason.tooLarge.rawValue : refusal.kind.rawValue, refusal.reason)
        } catch {
            metrics.storeFailed()
            log?.storeFailure(client: request.clientAddress, path: request.path, error: String(describing: error), requestID: request.requestID)
            return .error(
                503, "unavailable", "the server could not complete the request (request id \(request.requestID)); try again",
                retryAfterSeconds: 1)
        }
    }

    private func encodeState(_ state: AttachmentUploadState) throws -> HTTPResponse {
        HTTPResponse(status: 200, body: Array(try SyncJSON.encoder().encode(state)))
    }

    /// `name=value` pairs of a query string; a name given twice keeps its first value.
    private static func queryItems(_ query: String) -> [String: String] {
        var items: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard halves.count == 2 else { continue }
            if items[String(halves[0])] == nil { items[String(halves[0])] = String(halves[1]) }
        }
        return items
    }

    /// The query's `name`, a number of at least 0.
    private static func number(_ name: String, in query: [String: String]) throws -> Int64 {
        guard let text = query[name] else { throw AttachmentRefusal(.invalid, "the request needs ?\(name)=N") }
        guard let value = Int64(text), value >= 0 else {
            throw AttachmentRefusal(.invalid, "\(name) takes a number of at least 0, not '\(text.prefix(40))'")
        }
        return value
    }
}
