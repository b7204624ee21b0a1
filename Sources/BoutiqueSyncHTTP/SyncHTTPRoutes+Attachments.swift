import Foundation

/// The attachment endpoints: an upload's state, a piece of an upload, a range of an uploaded
/// attachment. Each request carries at most one piece or range, so that the server's memory holds a
/// piece per request (``SyncHTTPOptions/maximumBodyBytes`` bounds it), never a whole attachment.
///
/// | Request | Answer |
/// |---|---|
/// | `GET /v1/attachments/ID?size=N` | 200 ``/BoutiqueSync/AttachmentUploadState`` |
/// | `PUT /v1/attachments/ID?size=N&offset=O` (the bytes from O) | 200 ``/BoutiqueSync/AttachmentUploadState`` |
/// | `GET /v1/attachments/ID/bytes?offset=O&length=L` | 200 the bytes from O, at most L and at most ``maximumRangeBytes`` |
extension SyncHTTPRoutes {
    /// The longest range one download request is answered with; a client asks again from where it ends.
    static let maximumRangeBytes = 8 << 20

    /// The answer to an authenticated request under `/v1/attachments/`: `parts` are the path's parts after it.
    func attachment(_ request: HTTPRequest, parts: ArraySlice<String>, claims: SyncToken) async -> HTTPResponse {
        guard let attachments else {
            return .error(404, "not-found", "this server keeps no attachments")
        }
        guard let id = parts.first else { return .error(404, "not-found", "name the attachment: /v1/attachments/ID") }
        let query = Self.queryItems(request.query)
        do {
            switch (request.method, parts.count) {
            case ("GET", 1):
                let size = try Self.number("size", in: query)
                // A user who may not read the bytes is answered as if the server did not hold them:
                // where their own upload stands (they upload the bytes to show they have them).
                // Nobody learns where another user's upload stands.
                let evenIfStored = !(try await mayRead(id, claims))
                return try encodeState(
                    try await attachments.state(of: id, byteCount: size, tenant: claims.tenant, uploader: claims.user, evenIfStored: evenIfStored))
            case ("PUT", 1):
                let size = try Self.number("size", in: query)
                let offset = try Self.number("offset", in: query)
                // A user who may not read the bytes uploads them whole, checked, even when the server
                // holds them (or comes to while this piece waits its turn): an id and a size alone (which
                // rows show) do not make the bytes theirs.
                let evenIfStored = !(try await mayRead(id, claims))
                if !evenIfStored {
                    // A reader's piece of bytes held whole already is answered so, and counts for
                    // nothing: only the upload that makes the bytes whole, or a proof, records its user
                    // as their uploader (whose rights outlive the rows'); an empty piece must not.
                    let held = try await attachments.state(of: id, byteCount: size, tenant: claims.tenant, uploader: claims.user)
                    if held.isUploaded { return try encodeState(held) }
                }
                let state = try await attachments.append(
                    request.body, to: id, byteCount: size, at: offset, tenant: claims.tenant, uploader: claims.user, evenIfStored: evenIfStored)
                if state.isUploaded { try await server.noteUpload(of: id, by: claims.user, tenant: claims.tenant) }
                return try encodeState(state)
            case ("GET", 2) where parts.last == "bytes":
                let offset = try Self.number("offset", in: query)
                let length = try Self.number("length", in: query)
                // 404 as for bytes the server does not hold: existence is not revealed.
                guard try await mayRead(id, claims) else {
                    throw AttachmentRefusal(.notFound, "no attachment \(id.prefix(80)) is uploaded")
                }
                let range = try await attachments.read(
                    id, offset: offset, length: Int(min(length, Int64(Self.maximumRangeBytes))), tenant: claims.tenant)
                // Bytes a client can ask for again: when the answers waiting to be read leave no room
                // for them, a 503 takes their place.
                return HTTPResponse(status: 200, body: range.bytes, contentType: "application/octet-stream").markedRepeatable()
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

    /// Whether the token's user may read `id` (``/BoutiqueSyncServer/SyncServer/mayRead(attachment:user:tenant:)``);
    /// an id that is not one is left to the store, which refuses it with its reason.
    private func mayRead(_ id: String, _ claims: SyncToken) async throws -> Bool {
        guard Attachment.isValidID(id) else { return true }
        return try await server.mayRead(attachment: id, user: claims.user, tenant: claims.tenant)
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
