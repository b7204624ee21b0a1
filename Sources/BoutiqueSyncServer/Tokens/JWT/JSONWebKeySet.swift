import Foundation

/// The public keys an identity provider signs its JSON Web Tokens with, read from a JWK Set (RFC 7517:
/// `{"keys": [{"kty": "RSA", "kid": "…", "n": "…", "e": "AQAB"}, …]}`), each chosen by its `kid`.
///
/// ```swift
/// let keys = try JSONWebKeySet(json: Array(try Data(contentsOf: jwksFile)))
/// for note in keys.ignored { print("warning: \(note)") }
/// ```
///
/// RSA keys (2048 to 8192 bits) check RS256 signatures and EC keys on P-256 check ES256 ones. A key
/// of another kind (a shared `oct` secret, another curve), one whose `use` is not `sig`, or one whose
/// `alg` is not its kind's algorithm is left out and said in ``ignored``: a key is only ever used with
/// its own algorithm. A set is read within bounds: at most ``maximumBytes`` and ``maximumKeys`` keys.
public struct JSONWebKeySet: Sendable {
    /// The largest JWK Set document read.
    public static let maximumBytes = 256 * 1024
    /// The most keys a JWK Set may hold (identity providers publish two or three, for rotation).
    public static let maximumKeys = 64

    /// The keys, in the set's order.
    let keys: [Entry]
    /// A sentence per key left out, saying which and why.
    public let ignored: [String]

    /// One usable key and its `kid`.
    struct Entry: Sendable {
        let id: String?
        let key: JWTPublicKey
    }

    /// How many keys can check signatures.
    public var count: Int { keys.count }

    /// The keys of the JWK Set in `json`.
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/invalidArgument(_:)`` when the document is larger than
    ///   ``maximumBytes``, is not a JWK Set, holds more than ``maximumKeys`` keys, or holds no key
    ///   that can check RS256 or ES256 signatures.
    public init(json: [UInt8]) throws {
        guard json.count <= Self.maximumBytes else {
            throw BoutiqueError.invalidArgument("the JWK Set has \(json.count) bytes, more than the \(Self.maximumBytes) read")
        }
        guard let document = JSONValue.object(json), case .array(let members)? = document["keys"] else {
            throw BoutiqueError.invalidArgument(#"the JWK Set is not a JSON object with a "keys" array"#)
        }
        guard members.count <= Self.maximumKeys else {
            throw BoutiqueError.invalidArgument("the JWK Set has \(members.count) keys, more than the \(Self.maximumKeys) read")
        }
        var keys: [Entry] = []
        var ignored: [String] = []
        for (index, member) in members.enumerated() {
            guard case .object(let jwk) = member else {
                ignored.append("key \(index + 1) is not a JSON object")
                continue
            }
            let id = jwk["kid"]?.string
            let name = id.map { "key '\($0.prefix(64))'" } ?? "key \(index + 1)"
            switch Self.key(from: jwk) {
            case .success(let key): keys.append(Entry(id: id, key: key))
            case .failure(let problem): ignored.append("\(name) is left out: \(problem.reason)")
            }
        }
        guard !keys.isEmpty else {
            throw BoutiqueError.invalidArgument(
                "the JWK Set has no RSA or P-256 signing key\(ignored.isEmpty ? "" : " (\(ignored.joined(separator: "; ")))")")
        }
        self.keys = keys
        self.ignored = ignored
    }

    /// The key of one JWK, or why it cannot be one.
    private static func key(from jwk: [String: JSONValue]) -> Result<JWTPublicKey, JWTPublicKey.KeyProblem> {
        if let use = jwk["use"], use.string != "sig" { return .failure(.init("its use is not sig")) }
        let kind = jwk["kty"]?.string
        let algorithm: JWTAlgorithm
        switch kind {
        case "RSA": algorithm = .rs256
        case "EC": algorithm = .es256
        default: return .failure(.init("its kty is not RSA or EC (only public signing keys are read)"))
        }
        if let declared = jwk["alg"], declared.string != algorithm.rawValue {
            return .failure(.init("its alg is not \(algorithm.rawValue), the one algorithm a \(kind ?? "") key is used with"))
        }
        func bytes(_ member: String) -> [UInt8]? { jwk[member]?.string.flatMap(Base64.decodeURLSafe) }
        return Result { () throws(JWTPublicKey.KeyProblem) -> JWTPublicKey in
            switch algorithm {
            case .rs256:
                guard let n = bytes("n"), let e = bytes("e") else { throw .init("its n or e is missing or not base64url") }
                return try JWTPublicKey(rsaModulus: n, exponent: e)
            default:
                guard jwk["crv"]?.string == "P-256" else { throw .init("its curve is not P-256") }
                guard let x = bytes("x"), let y = bytes("y") else { throw .init("its x or y is missing or not base64url") }
                return try JWTPublicKey(p256X: x, y: y)
            }
        }
    }

    /// What the set holds for a token signed with `algorithm` naming `id`.
    enum Lookup {
        case found(JWTPublicKey)
        /// A key with that id, of another kind than the algorithm's.
        case wrongKind
        case missing
    }

    /// The key for a token signed with `algorithm` naming key `id`; without an id, the one key of the
    /// algorithm's kind when there is only one.
    func key(id: String?, algorithm: JWTAlgorithm) -> Lookup {
        guard let id else {
            let candidates = keys.filter { $0.key.algorithm == algorithm }
            return candidates.count == 1 ? .found(candidates[0].key) : .missing
        }
        // A set may give an RSA and an EC key one id: the token's algorithm picks between them.
        let named = keys.filter { $0.id.map { SyncName.same($0, id) } ?? false }
        guard !named.isEmpty else { return .missing }
        return named.first(where: { $0.key.algorithm == algorithm }).map { .found($0.key) } ?? .wrongKind
    }
}
