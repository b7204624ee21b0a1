import Foundation

/// The protocol over HTTP: which request goes where, who is asking, and what each outcome's status is.
/// (The table is on ``SyncHTTPServer``.)
struct SyncHTTPRoutes: Sendable {
    let server: SyncServer
    let authentication: SyncAuthentication
    /// Whether the server is draining (stopping): `/readyz` says so, to be taken out of rotation.
    let draining: DrainingFlag
    /// The store read `/readyz` answers by, shared by the probes that come at once.
    let readiness: ReadinessRead
    let options: SyncHTTPOptions
    let log: SyncRequestLog?
    let metrics: SyncMetrics
    /// Where attachments' bytes are kept; nil for a server that keeps none.
    let attachments: (any SyncAttachmentStore)?

    private enum Endpoint: String {
        case push, pull, snapshot, share, unshare, members
    }

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        let started = ContinuousClock.now
        let response = await answer(request)
        metrics.answered(path: request.path, status: response.status, duration: ContinuousClock.now - started, refusal: response.refusalCode)
        return response
    }

    private func answer(_ request: HTTPRequest) async -> HTTPResponse {
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        if parts == ["v1", "health"] {
            guard request.method == "GET" || request.method == "HEAD" else { return methodNotAllowed(request) }
            return HTTPResponse(status: 200, body: Array(#"{"status":"ok","protocolVersion":\#(SyncProtocol.version)}"#.utf8))
        }
        if parts == ["healthz"] || parts == ["readyz"] {
            guard request.method == "GET" || request.method == "HEAD" else { return methodNotAllowed(request) }
            guard parts == ["readyz"] else { return HealthProbe.live() }
            let (response, storeError) = await HealthProbe.ready(readiness, draining: draining.isSet)
            if let storeError {
                metrics.storeFailed()
                log?.storeFailure(client: request.clientAddress, path: request.path, error: storeError, requestID: request.requestID)
            }
            return response
        }
        if parts.count >= 3, parts[0] == "v1", parts[1] == "attachments" {
            let claims: SyncToken
            switch await verifiedClaims(request) {
            case .success(let verified): claims = verified
            case .failure(let refusal): return refusal.response
            }
            metrics.sawTenant(claims.tenant)
            var response = await attachment(request, parts: parts.dropFirst(2), claims: claims)
            response.tenant = claims.tenant
            response.user = claims.user
            return response
        }
        let endpoint: Endpoint
        var pathTenant: String?
        switch parts.count {
        case 2 where parts[0] == "v1":
            guard let named = Endpoint(rawValue: parts[1]) else { return notFound(request) }
            endpoint = named
        case 4 where parts[0] == "v1" && parts[1] == "tenants":
            guard let named = Endpoint(rawValue: parts[3]), let tenant = parts[2].removingPercentEncoding else {
                return notFound(request)
            }
            endpoint = named
            pathTenant = tenant
        default:
            if parts.first != "v1", parts.count >= 2, Endpoint(rawValue: parts.last ?? "") != nil {
                return .refusal(.protocolMismatch, "this server speaks protocol version \(SyncProtocol.version) under /v1/")
            }
            return notFound(request)
        }
        guard request.method == "POST" else { return methodNotAllowed(request) }
        let claims: SyncToken
        switch await verifiedClaims(request) {
        case .success(let verified): claims = verified
        case .failure(let refusal): return refusal.response
        }
        metrics.sawTenant(claims.tenant)
        var response = await respond(to: request, endpoint: endpoint, pathTenant: pathTenant, claims: claims)
        response.tenant = claims.tenant
        response.user = claims.user
        return response
    }

    /// The answer to an authenticated request.
    private func respond(to request: HTTPRequest, endpoint: Endpoint, pathTenant: String?, claims: SyncToken) async -> HTTPResponse {
        // Bytes, as the store keys tenants: another spelling of the tenant's name is another tenant.
        if let pathTenant, !SyncName.same(pathTenant, claims.tenant) {
            return .refusal(.forbidden, "the token is for another tenant than '\(pathTenant)'")
        }
        do {
            switch endpoint {
            case .push: return try await push(request.body, claims: claims, requestID: request.requestID)
            // A pull or snapshot changes nothing a device could miss: when the answers waiting to be
            // read leave no room for its answer, a 503 takes its place and the device asks again.
            case .pull: return try await pull(request.body, claims: claims).markedRepeatable()
            case .snapshot: return try await snapshot(request.body, claims: claims).markedRepeatable()
            case .share: return try await membership(.share, request.body, claims: claims)
            case .unshare: return try await membership(.unshare, request.body, claims: claims)
            case .members: return try await membership(.members, request.body, claims: claims)
            }
        } catch let refusal as Refusal {
            return refusal.response
        } catch {
            // The store failed (a lost PostgreSQL connection, a full disk): nothing was committed, and
            // the device retries the same request. The error stays in the log: its text can name the
            // database's host, statements and constraints, which are no client's business.
            metrics.storeFailed()
            log?.storeFailure(
                client: request.clientAddress, path: request.path, error: String(describing: error), requestID: request.requestID)
            return .error(
                503, "unavailable", "the server could not complete the request (request id \(request.requestID)); try again",
                retryAfterSeconds: 1)
        }
    }

    // MARK: Endpoints

    private func push(_ body: [UInt8], claims: SyncToken, requestID: String) async throws -> HTTPResponse {
        let request = try decode(PushRequest.self, body)
        try checkVersion(request.protocolVersion)
        guard request.schemaVersion >= server.minimumSchemaVersion else {
            throw Refusal(
                .appTooOld,
                "app schema version \(request.schemaVersion) is older than the server's minimum \(server.minimumSchemaVersion); update the app")
        }
        let response = try await server.push(request, tenant: claims.tenant, user: claims.user)
        switch response.outcome {
        case .accepted:
            metrics.pushed(changes: request.transactions.reduce(0) { $0 + $1.changes.count })
            return try encode(response, status: 200)
        case .mismatch: return try encode(response, status: 409)
        case .refused:
            if response.refusal == .tooLarge { return .refusal(.tooLarge, response.reason ?? "the push is larger than the server takes") }
            if response.refusal == .rulesMismatch {
                // The operator's problem, in the operator's log: which rule names what. The device
                // keeps its changes and comes back later.
                log?.rulesMismatch(tenant: claims.tenant, reason: response.reason ?? "", requestID: requestID)
                return .refusal(
                    .rulesMismatch,
                    "the server's sync rules do not match this app's tables, so it cannot place these changes yet (request id \(requestID)); they stay on the device and are sent again later",
                    retryAfterSeconds: 60)
            }
            return .refusal(response.refusal == .clockSkew ? .clockSkew : .invalid, response.reason ?? "the push was refused")
        case .forbidden:
            return .refusal(
                response.refusal == .replicaTaken ? .replicaTaken : .forbidden, response.reason ?? "the user may not make these changes")
        }
    }

    private func pull(_ body: [UInt8], claims: SyncToken) async throws -> HTTPResponse {
        var request = try decode(PullRequest.self, body)
        try checkVersion(request.protocolVersion)
        request.waitMilliseconds = min(max(request.waitMilliseconds, 0), options.maximumWaitMilliseconds)
        if request.waitMilliseconds > 0 { metrics.longPollBegan() }
        defer { if request.waitMilliseconds > 0 { metrics.longPollEnded() } }
        let response = try await server.pull(request, tenant: claims.tenant, user: claims.user)
        switch response.outcome {
        case .changes:
            metrics.pulled(changes: response.changes.count)
            return try encode(response, status: 200)
        case .resetRequired: return try encode(response, status: 410)
        case .refused:
            return .refusal(response.refusal == .replicaTaken ? .replicaTaken : .invalid, response.reason ?? "the pull was refused")
        }
    }

    private func snapshot(_ body: [UInt8], claims: SyncToken) async throws -> HTTPResponse {
        let request = try decode(SnapshotRequest.self, body)
        try checkVersion(request.protocolVersion)
        let response = try await server.snapshot(request, tenant: claims.tenant, user: claims.user)
        if let reason = response.reason { return .refusal(.invalid, reason) }
        return try encode(response, status: 200)
    }

    /// A membership request: 200 with the members, 403 for a user who may not, 400 for a request that
    /// cannot be (a table that is not a root, a role that cannot be given).
    private func membership(_ action: MembershipAction, _ body: [UInt8], claims: SyncToken) async throws -> HTTPResponse {
        let request = try decode(MembershipRequest.self, body)
        try checkVersion(request.protocolVersion)
        let response = try await server.membership(request, action: action, tenant: claims.tenant, user: claims.user)
        switch response.refusal {
        case nil: return try encode(response, status: 200)
        case .forbidden?: return .refusal(.forbidden, response.reason ?? "the user may not change this space's members")
        default: return .refusal(.invalid, response.reason ?? "the request was refused")
        }
    }

    // MARK: Checks

    /// A refusal on its way to becoming a response.
    private struct Refusal: Error {
        let response: HTTPResponse
        let reason: String
        init(_ refusal: SyncRefusal.Reason, _ reason: String) {
            response = .refusal(refusal, reason)
            self.reason = reason
        }
    }

    /// The request's verified token, or its refusal, logged.
    private func verifiedClaims(_ request: HTTPRequest) async -> Result<SyncToken, Refusal> {
        let result = await authenticate(request)
        if case .failure(let refusal) = result {
            log?.authenticationFailure(
                client: request.clientAddress, path: request.path, reason: refusal.reason, requestID: request.requestID)
        }
        return result
    }

    private func authenticate(_ request: HTTPRequest) async -> Result<SyncToken, Refusal> {
        guard let header = request.authorization, header.count > 7, header.prefix(7).lowercased() == "bearer " else {
            return .failure(Refusal(.unauthorized, "send the device's token as `Authorization: Bearer TOKEN`"))
        }
        let token = header.dropFirst(7).trimmingCharacters(in: .whitespaces)
        do {
            return .success(try await authentication.verify(token))
        } catch {
            return .failure(Refusal(.unauthorized, Self.reason(of: error)))
        }
    }

    private static func reason(of error: any Error) -> String {
        if case .syncRefused(let reason)? = error as? BoutiqueError { return reason }
        return String(describing: error)
    }

    private func checkVersion(_ version: Int) throws {
        guard version == SyncProtocol.version else {
            throw Refusal(
                .protocolMismatch,
                version < SyncProtocol.version
                    ? "protocol version \(version) is too old; this server speaks \(SyncProtocol.version): update the app"
                    : "protocol version \(version) is newer than this server's \(SyncProtocol.version): update the server")
        }
    }

    private func decode<T: Decodable>(_ type: T.Type, _ body: [UInt8]) throws -> T {
        guard !body.isEmpty else { throw Refusal(.invalid, "the request has no body; send a JSON \(T.self)") }
        do {
            return try SyncJSON.decoder().decode(T.self, from: Data(body))
        } catch {
            throw Refusal(.invalid, "the body is not a JSON \(T.self): \(Self.describe(error))")
        }
    }

    /// A decoding error in a line: what was wrong and where, without echoing the body.
    private static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "unreadable" }
        switch error {
        case .dataCorrupted(let context): return "\(context.debugDescription) at \(path(context.codingPath))"
        case .keyNotFound(let key, let context): return "no '\(key.stringValue)' at \(path(context.codingPath))"
        case .typeMismatch(let type, let context): return "expected \(type) at \(path(context.codingPath))"
        case .valueNotFound(let type, let context): return "expected \(type) at \(path(context.codingPath))"
        @unknown default: return "unreadable"
        }
    }

    private static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.isEmpty ? "the top" : codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
    }

    private func encode<T: Encodable>(_ value: T, status: Int) throws -> HTTPResponse {
        HTTPResponse(status: status, body: Array(try SyncJSON.encoder().encode(value)))
    }

    private func notFound(_ request: HTTPRequest) -> HTTPResponse {
        .error(404, "not-found", "no such endpoint: \(request.path.prefix(200)); the protocol's are /v1/push, /v1/pull, /v1/snapshot, /v1/share, /v1/unshare, /v1/members and /v1/attachments/ID")
    }

    private func methodNotAllowed(_ request: HTTPRequest) -> HTTPResponse {
        .error(405, "method-not-allowed", "\(request.method.prefix(20)) is not allowed on \(request.path.prefix(200))")
    }
}
