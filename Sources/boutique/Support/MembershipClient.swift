import BoutiqueSync
import Foundation

/// What `boutique share`, `unshare` and `members` have in common: the server and token, the root row
/// (`--table T --key K`, a text key), and sending the request.
struct MembershipClient {
    let server: URL
    let token: String
    let trust: SyncServerTrust
    let table: String
    let key: String

    /// Reads `--server URL --token TOKEN --table T --key K [--ca-file FILE]` (or the token from
    /// `--token-file FILE` or `BOUTIQUE_SYNC_TOKEN`).
    init(_ arguments: inout ArgumentParser) throws {
        guard let serverText = try arguments.takeOption("--server") else { throw UsageError("--server is required") }
        let token = try SecretArguments.token(&arguments)
        guard let table = try arguments.takeOption("--table"), !table.isEmpty else { throw UsageError("--table is required") }
        guard let key = try arguments.takeOption("--key") else { throw UsageError("--key is required") }
        let caFile = try arguments.takeOption("--ca-file")
        guard let server = URL(string: serverText), ["http", "https"].contains(server.scheme?.lowercased() ?? ""), server.host != nil else {
            throw UsageError("--server takes an http:// or https:// address, not '\(serverText)'")
        }
        self.server = server
        self.token = token
        self.trust = try CAFileArgument.trust(caFile, server: server)
        self.table = table
        self.key = key
    }

    /// Sends the request and prints the members after it, one `USER ROLE` line each. A refusal (a user
    /// who is not the owner, say) is thrown with the server's reason: the tool exits non-zero.
    @MainActor
    func send(_ action: MembershipAction, user: String? = nil, role: SyncRole? = nil) async throws {
        let transport = HTTPSyncTransport.http(server, token: token, trust: trust)
        let request = MembershipRequest(table: table, key: .text(key), user: user, role: role)
        let response = try await transport.membership(request, action: action)
        if let reason = response.reason { throw SyncRefusal(reason: response.refusal ?? .invalid, message: reason) }
        for member in response.members { Output.line(member.description) }
    }
}
