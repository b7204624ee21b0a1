import Foundation

/// Which certificate authorities an ``HTTPSyncTransport`` trusts to vouch for an `https://` server:
/// the system's (``system``, the default), or only those of a private authority
/// (``certificateAuthority(file:)``), for a server whose certificate your own authority signed.
///
/// ```swift
/// let authority = Bundle.main.url(forResource: "sync-ca", withExtension: "pem")!
/// let server: HTTPSyncTransport = .http(URL(string: "https://sync.internal:8443")!, token: token,
///                                       trust: try .certificateAuthority(file: authority))
/// let sync = try await BoutiqueSync(database: db, tables: [Note.self], server: server)
/// ```
///
/// The trust applies to this transport's requests alone, not to the rest of the app's, and it never
/// turns verification off: the server's chain must lead to one of the given authorities, be valid
/// now, and name the host of the URL (a DNS name, or an IP address in the certificate's
/// `subjectAltName`). A server it does not trust fails the request at once, without retrying, with
/// ``/BoutiqueDB/BoutiqueError/syncUnavailable(reason:)`` saying why.
///
/// On Apple platforms the chain is evaluated by the Security framework with the authorities as its
/// only anchors; on Linux, where `URLSession` cannot be given authorities of its own, `https://`
/// requests are sent through libcurl (which `URLSession` uses there too), with the authorities as its
/// only CA certificates. Plain `http://` ignores it.
public struct SyncServerTrust: Sendable, Hashable, CustomStringConvertible {
    /// The authorities' certificates, DER; empty for the system's.
    let certificates: [Data]

    /// The authorities the system trusts (its root store), as browsers do.
    public static let system = SyncServerTrust(certificates: [])

    private init(certificates: [Data]) {
        self.certificates = certificates
    }

    /// Only the authorities whose certificates are in the PEM text `pem` (one or more
    /// `-----BEGIN CERTIFICATE-----` blocks), instead of the system's.
    ///
    /// ```swift
    /// let trust = try SyncServerTrust.certificateAuthority(pem: configuration.syncAuthorityPEM)
    /// ```
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/invalidArgument(_:)`` when `pem` holds no certificate, or
    ///   one that is not base64.
    public static func certificateAuthority(pem: String) throws -> SyncServerTrust {
        try SyncServerTrust(certificates: certificates(in: pem, source: "the certificate authority PEM"))
    }

    /// Only the authorities whose certificates are in the PEM file `file` (the authority's
    /// `ca.pem`, which may hold several), instead of the system's. The file is read now.
    ///
    /// ```swift
    /// let trust = try SyncServerTrust.certificateAuthority(file: URL(fileURLWithPath: "/etc/boutique/ca.pem"))
    /// ```
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/invalidArgument(_:)`` when the file cannot be read or holds
    ///   no PEM certificate.
    public static func certificateAuthority(file: URL) throws -> SyncServerTrust {
        let data: Data
        do { data = try Data(contentsOf: file) } catch {
            throw BoutiqueError.invalidArgument("cannot read the certificate authority file \(file.path): \(error.localizedDescription)")
        }
        guard data.count <= 1 << 20 else {
            throw BoutiqueError.invalidArgument("the certificate authority file \(file.path) is larger than 1 MB; is it the right file?")
        }
        let source = "the certificate authority file \(file.path)"
        guard let text = String(data: data, encoding: .utf8) else { throw BoutiqueError.invalidArgument("\(source) is not PEM text") }
        return try SyncServerTrust(certificates: certificates(in: text, source: source))
    }

    /// Whether the system's authorities are trusted.
    public var isSystem: Bool { certificates.isEmpty }

    /// `system`, or how many authorities are trusted.
    public var description: String {
        isSystem ? "SyncServerTrust.system" : "SyncServerTrust(certificate authorities: \(certificates.count))"
    }

    /// The certificates as PEM text, each block re-encoded from its bytes (what libcurl is given).
    var pem: [UInt8] {
        let blocks = certificates.map { der -> String in
            let base64 = der.base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
            return "-----BEGIN CERTIFICATE-----\n\(base64)\n-----END CERTIFICATE-----\n"
        }
        return Array(blocks.joined().utf8)
    }

    /// The DER bytes of every `CERTIFICATE` block of `text`.
    private static func certificates(in text: String, source: String) throws -> [Data] {
        let begin = "-----BEGIN CERTIFICATE-----"
        let end = "-----END CERTIFICATE-----"
        var certificates: [Data] = []
        var rest = text[...]
        while let start = rest.range(of: begin) {
            guard let stop = rest.range(of: end, range: start.upperBound..<rest.endIndex) else {
                throw BoutiqueError.invalidArgument("\(source) has a certificate without its \(end) line")
            }
            let body = rest[start.upperBound..<stop.lowerBound].filter { !$0.isWhitespace }
            guard let der = Data(base64Encoded: String(body)), !der.isEmpty else {
                throw BoutiqueError.invalidArgument("\(source) has a certificate that is not base64")
            }
            certificates.append(der)
            rest = rest[stop.upperBound...]
        }
        guard !certificates.isEmpty else {
            let hint = text.contains("PRIVATE KEY-----") ? "; it holds a private key, which a device never needs" : ""
            throw BoutiqueError.invalidArgument("\(source) holds no PEM certificate (\(begin))\(hint)")
        }
        return certificates
    }
}
