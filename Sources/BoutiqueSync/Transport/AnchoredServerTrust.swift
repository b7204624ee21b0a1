#if canImport(Security)
import BoutiqueSQLite
import Foundation
import Security

/// The `URLSession` delegate of an ``HTTPSyncTransport`` that trusts given authorities
/// (``SyncServerTrust/certificateAuthority(file:)``): it evaluates the server's chain with those
/// authorities as its only anchors, keeping the host-name check of the TLS policy the system set.
final class AnchoredServerTrust: NSObject, URLSessionDelegate, @unchecked Sendable {
    /// The authorities; immutable after `init`.
    private let anchors: [SecCertificate]
    /// Why the last chain was refused, for the error the request then ends with.
    private let lastRefusal = Lock<String?>(nil)

    init(_ trust: SyncServerTrust) {
        anchors = trust.certificates.compactMap { SecCertificateCreateWithData(nil, $0 as CFData) }
    }

    /// Why the server's certificate was last refused, `nil` when none was.
    var refusal: String? { lastRefusal.withLock { $0 } }

    func urlSession(
        _ session: URLSession, didReceive challenge: URLAuthenticationChallenge
    ) async -> (URLSession.AuthChallengeDisposition, URLCredential?) {
        guard challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodServerTrust,
            let trust = challenge.protectionSpace.serverTrust
        else { return (.performDefaultHandling, nil) }
        guard !anchors.isEmpty, SecTrustSetAnchorCertificates(trust, anchors as CFArray) == errSecSuccess,
            SecTrustSetAnchorCertificatesOnly(trust, true) == errSecSuccess
        else {
            lastRefusal.withLock { $0 = "the given certificate authority could not be used" }
            return (.cancelAuthenticationChallenge, nil)
        }
        var error: CFError?
        if SecTrustEvaluateWithError(trust, &error) {
            // A refusal told of an earlier chain says nothing of later failures.
            lastRefusal.withLock { $0 = nil }
            return (.useCredential, URLCredential(trust: trust))
        }
        let reason = error.map { CFErrorCopyDescription($0) as String } ?? "it is not signed by the given certificate authority"
        lastRefusal.withLock { $0 = reason }
        return (.cancelAuthenticationChallenge, nil)
    }
}
#endif
