/// How a sync server tells whose a bearer token is: the server's own tokens (``SyncTokenSigner``,
/// `bq1.…`), JSON Web Tokens from an identity provider (``JWTVerifier``), or both side by side.
///
/// ```swift
/// let authentication = try SyncAuthentication(
///     signer: try SyncTokenSigner(secretFile: URL(fileURLWithPath: "secret")),
///     jwt: try await JWTVerifier.fetchingKeys(from: URL(string: "https://example.eu.auth0.com/.well-known/jwks.json")!))
/// let claims = try await authentication.verify(token)
/// ```
///
/// A token is sent to the checker its form names: one starting `bq1.` to the signer, any other to
/// the JWT verifier. Tokens the server issued keep working when it starts taking JWTs.
public struct SyncAuthentication: Sendable {
    /// The server's own tokens, when it takes them.
    public let signer: SyncTokenSigner?
    /// Tokens from an identity provider, when it takes them.
    public let jwt: JWTVerifier?

    /// Authentication by `signer`'s tokens, `jwt`'s, or both.
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/invalidArgument(_:)`` when both are `nil`: a server that
    ///   takes no token serves no one.
    public init(signer: SyncTokenSigner? = nil, jwt: JWTVerifier? = nil) throws {
        guard signer != nil || jwt != nil else {
            throw BoutiqueError.invalidArgument("a sync server needs a token secret, a JWK Set or a JWT secret to check tokens with")
        }
        self.signer = signer
        self.jwt = jwt
    }

    /// The tenant and user of `token`, once the checker its form names has accepted it.
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/syncRefused(reason:)`` saying why it is refused, never
    ///   repeating it.
    public func verify(_ token: String) async throws -> SyncToken {
        if let signer, token.hasPrefix(SyncToken.prefix + ".") || jwt == nil { return try signer.verify(token) }
        guard let jwt else { throw BoutiqueError.syncRefused(reason: "the bearer token is not a BoutiqueDB sync token") }
        return try await jwt.verify(token)
    }
}
