import Foundation

/// Why a JSON Web Token is refused: the check it failed, and a sentence for the device and the log.
///
/// The reason names the check first (`expired: …`), so that a log can be searched by it, and never
/// repeats the token or a value taken from it beyond the algorithm's name: a token is a credential,
/// and its claims are the caller's text.
struct JWTRefusal: Error, Sendable {
    /// The checks, as the reason names them.
    enum Check: String, Sendable {
        case malformed = "malformed"
        case unsupportedAlgorithm = "unsupported algorithm"
        case unknownKey = "unknown key"
        case badSignature = "bad signature"
        case expired = "expired"
        case notYetValid = "not yet valid"
        case wrongAudience = "wrong audience"
        case wrongIssuer = "wrong issuer"
    }

    let check: Check
    let detail: String

    init(_ check: Check, _ detail: String) {
        self.check = check
        self.detail = detail
    }

    /// `check: detail`, as the 401's reason and the log's line say it.
    var reason: String { "\(check.rawValue): \(detail)" }

    /// The refusal as the server's other token refusals are thrown.
    var error: BoutiqueError { .syncRefused(reason: reason) }
}
