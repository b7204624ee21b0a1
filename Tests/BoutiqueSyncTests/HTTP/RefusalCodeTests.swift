// The HTTP front end is part of the package where GNU libmicrohttpd is installed; so are its tests.
#if BOUTIQUE_SYNC_HTTP
import BoutiqueSync
import BoutiqueSyncHTTP
import BoutiqueSyncServer
import Foundation
import Testing

/// A refusal crosses HTTP as its reason's status with the reason's raw value as the error's code, and
/// the device reads the same reason back: one translation, both ways.
@Suite struct RefusalCodeTests {
    @Test func everyReasonReadsBackFromItsStatusAndCode() {
        for reason in SyncRefusal.Reason.allCases {
            #expect(SyncRefusal.Reason(httpStatus: reason.httpStatus, code: reason.rawValue) == reason, "\(reason)")
            #expect((400..<600).contains(reason.httpStatus), "\(reason) is an error status")
        }
        // An answer the protocol did not make (a proxy's, the HTTP layer's) is read from its status.
        #expect(SyncRefusal.Reason(httpStatus: 401, code: nil) == .unauthorized)
        #expect(SyncRefusal.Reason(httpStatus: 403, code: "denied-by-proxy") == .forbidden)
        #expect(SyncRefusal.Reason(httpStatus: 404, code: "not-found") == .invalid)
    }

    @Test func theServerNamesTheReasonItRefusesFor() async throws {
        let server = try await HTTPTestServer(minimumSchemaVersion: 2)
        let token = try server.token()
        func refusal(_ path: String, _ body: Data, token: String? = nil) async throws -> (Int, String?) {
            let answer = try await RawHTTP.send(server.http.url, path, token: token, body: body)
            return (answer.status, answer.errorBody?.error.code)
        }
        let newer = try RawHTTP.json(PullRequest(replica: "r", cursor: 0, limit: 10, protocolVersion: SyncProtocol.version + 1))
        #expect(try await refusal("v1/pull", newer, token: token) == (426, "protocolMismatch"))
        let old = try RawHTTP.json(PushRequest(replica: "r", baseTransactionID: 0, baseDigest: nil, schemaVersion: 1, transactions: []))
        #expect(try await refusal("v1/push", old, token: token) == (426, "appTooOld"))
        #expect(try await refusal("v1/pull", Data("{".utf8), token: token) == (400, "invalid"))
        #expect(try await refusal("v1/pull", newer) == (401, "unauthorized"))
        #expect(try await refusal("v1/tenants/other/pull", newer, token: token) == (403, "forbidden"))
        await server.stop()
    }
}
#endif
