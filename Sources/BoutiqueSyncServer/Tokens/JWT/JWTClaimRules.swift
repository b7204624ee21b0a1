/// What a JSON Web Token's claims must say for the server to accept it, and where its tenant is.
///
/// ```swift
/// // Auth0: the tenant in a namespaced custom claim, the API as audience.
/// var rules = JWTClaimRules(tenantClaim: "https://example.com/tenant")
/// rules.audience = "https://sync.example.com"
/// rules.issuer = "https://example.eu.auth0.com/"
///
/// // Supabase: one app, one tenant; every user is its user.
/// let single = JWTClaimRules(tenant: "notes", audience: "authenticated")
/// ```
///
/// The user is the `sub` claim. `exp` is required and, like `nbf` when present, checked with
/// ``leewaySeconds`` of leeway for clocks that differ. User and tenant follow the rule every token's
/// names do: 1 to 256 bytes of UTF-8 in Unicode NFC, without control characters.
public struct JWTClaimRules: Sendable, Hashable {
    /// The claim naming the token's tenant (`tenant` unless said otherwise); not read when ``tenant``
    /// is set.
    public var tenantClaim: String
    /// The one tenant of a single-tenant app: every token's, whatever its claims say.
    public var tenant: String?
    /// The audience a token's `aud` (a string, or an array of them) must name, when set.
    public var audience: String?
    /// The issuer a token's `iss` must be exactly, when set.
    public var issuer: String?
    /// The seconds a token is still taken after its `exp`, and already before its `nbf`.
    public var leewaySeconds: Int64 = 60

    /// Rules reading the tenant from `tenantClaim`.
    public init(tenantClaim: String = "tenant", audience: String? = nil, issuer: String? = nil) {
        self.tenantClaim = tenantClaim
        self.audience = audience
        self.issuer = issuer
    }

    /// Rules giving every token the one `tenant` of a single-tenant app.
    public init(tenant: String, audience: String? = nil, issuer: String? = nil) {
        self.init(audience: audience, issuer: issuer)
        self.tenant = tenant
    }
}
