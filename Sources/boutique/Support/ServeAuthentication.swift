import BoutiqueSyncServer
import Foundation

/// The tokens `boutique serve` takes, as flags: its own (`--secret-file`), and JSON Web Tokens from an
/// identity provider (`--jwks FILE`, `--jwks-url URL`, `--jwt-secret-file FILE`, with `--tenant-claim
/// NAME` or `--tenant ID`, `--jwt-audience` and `--jwt-issuer`). At least one source of keys is needed.
struct ServeAuthentication {
    var secretFile: String?
    var jwksFile: String?
    var jwksURL: URL?
    var jwtSecretFile: String?
    var rules = JWTClaimRules()

    /// Reads the flags above, each optional.
    init(_ arguments: inout ArgumentParser) throws {
        secretFile = try arguments.takeOption("--secret-file")
        jwksFile = try arguments.takeOption("--jwks")
        if let text = try arguments.takeOption("--jwks-url") {
            guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), let host = url.host else {
                throw UsageError("--jwks-url takes an https URL, not '\(text)'")
            }
            // Keys read over plain HTTP could be anyone's on the way: only on this machine.
            guard url.scheme?.lowercased() == "https" || ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host.lowercased()) else {
                throw UsageError("--jwks-url must be https (plain http only to this machine: 127.0.0.1, localhost, ::1), not '\(text)'")
            }
            jwksURL = url
        }
        if jwksFile != nil, jwksURL != nil { throw UsageError("give --jwks or --jwks-url, not both") }
        jwtSecretFile = try arguments.takeOption("--jwt-secret-file")
        let tenantClaim = try arguments.takeOption("--tenant-claim")
        let tenant = try arguments.takeOption("--tenant")
        if tenantClaim != nil, tenant != nil { throw UsageError("give --tenant-claim or --tenant, not both") }
        if let tenant { rules = JWTClaimRules(tenant: tenant) }
        if let tenantClaim {
            guard !tenantClaim.isEmpty else { throw UsageError("--tenant-claim takes a claim's name") }
            rules.tenantClaim = tenantClaim
        }
        rules.audience = try arguments.takeOption("--jwt-audience")
        rules.issuer = try arguments.takeOption("--jwt-issuer")
        let takesJWTs = jwksFile != nil || jwksURL != nil || jwtSecretFile != nil
        if !takesJWTs, tenantClaim != nil || tenant != nil || rules.audience != nil || rules.issuer != nil {
            throw UsageError("--tenant-claim, --tenant, --jwt-audience and --jwt-issuer are rules for JWTs: give --jwks, --jwks-url or --jwt-secret-file")
        }
        guard secretFile != nil || takesJWTs else {
            throw UsageError("--secret-file FILE is required (or --jwks FILE, --jwks-url URL or --jwt-secret-file FILE for JWTs)")
        }
    }

    /// The server's token checkers, with a warning for each key of a JWK Set that cannot be used.
    func make() async throws -> SyncAuthentication {
        let signer = try secretFile.map { try SyncTokenSigner(secretFile: URL(fileURLWithPath: $0)) }
        let secret = try jwtSecretFile.map { try SecretFile.read(URL(fileURLWithPath: $0), what: "JWT secret") }
        var jwt: JWTVerifier?
        if let jwksURL {
            jwt = try await JWTVerifier.fetchingKeys(from: jwksURL, secret: secret, rules: rules)
        } else if jwksFile != nil || secret != nil {
            jwt = try JWTVerifier(keys: try jwksFile.map(Self.readKeys), secret: secret, rules: rules)
        }
        for note in jwt?.ignoredKeys ?? [] { Output.error("warning: JWK Set: \(note)") }
        return try SyncAuthentication(signer: signer, jwt: jwt)
    }

    private static func readKeys(_ path: String) throws -> JSONWebKeySet {
        let url = URL(fileURLWithPath: path)
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
        guard size <= JSONWebKeySet.maximumBytes else {
            throw BoutiqueError.invalidArgument("the JWK Set file \(path) is larger than \(JSONWebKeySet.maximumBytes / 1024) KB")
        }
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw BoutiqueError.invalidArgument("cannot read the JWK Set file \(path): \(error.localizedDescription)")
        }
        do {
            return try JSONWebKeySet(json: Array(data))
        } catch BoutiqueError.invalidArgument(let problem) {
            throw BoutiqueError.invalidArgument("\(path): \(problem)")
        }
    }
}
