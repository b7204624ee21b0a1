import BoutiqueSQLite

/// Where an HTTP transport gets its bearer token: a fixed one, or one the app hands out when asked
/// (and again when the server says the last one expired).
///
/// ```swift
/// let server: HTTPSyncTransport = .http(url, credentials: { rejected in
///     try await auth.freshSyncToken(replacing: rejected)   // `rejected` is nil for the first one
/// })
/// ```
final class SyncCredentials: Sendable {
    typealias Provider = @Sendable (_ rejected: String?) async throws -> String

    private let provider: Provider?
    private let current: Lock<String?>

    /// A fixed token: a 401 is final.
    init(token: String) {
        provider = nil
        current = Lock(token)
    }

    /// Tokens from `provider`, asked for the first one when a request needs it.
    init(provider: @escaping Provider) {
        self.provider = provider
        current = Lock(nil)
    }

    /// The token known now, without asking: `nil` before the provider was first asked.
    var known: String? { current.withLock { $0 } }

    /// The token to send.
    func token() async throws -> String {
        if let token = known { return token }
        return try await renew(rejected: nil) ?? ""
    }

    /// Asks the provider for a token to replace `rejected`; `nil` when there is no provider (a fixed
    /// token stays refused). A token another request renewed meanwhile is taken as is.
    func renew(rejected: String?) async throws -> String? {
        guard let provider else { return nil }
        if let token = known, token != rejected { return token }
        let fresh = try await provider(rejected)
        current.withLock { $0 = fresh }
        return fresh
    }
}

extension SyncCredentials {
    /// Whether the app hands out the tokens (a 401 asks for a new one).
    var isRenewable: Bool { provider != nil }
}
