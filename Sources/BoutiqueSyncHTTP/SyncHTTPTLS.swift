import Foundation

/// The certificate and private key a ``SyncHTTPServer`` serves HTTPS with: TLS 1.2 and 1.3 only,
/// through libmicrohttpd's own TLS (GnuTLS).
///
/// ```swift
/// let tls = try SyncHTTPTLS(certificateFile: URL(fileURLWithPath: "/etc/boutique/server.pem"),
///                           privateKeyFile: URL(fileURLWithPath: "/etc/boutique/server.key"))
/// let http = try SyncHTTPServer(server: server, signer: signer, host: "0.0.0.0", port: 8443, tls: tls)
/// print(http.url)   // https://0.0.0.0:8443
/// ```
///
/// Both are PEM text: the certificate file holds the server's certificate, followed by the
/// intermediate certificates devices need to reach their trusted authority (not the authority itself);
/// the key file holds its unencrypted private key (RSA or EC), and must be readable by its owner only
/// (`chmod 600`), as the token secret must. Devices that trust a private authority are given it with
/// ``/BoutiqueSync/SyncServerTrust``.
///
/// What is checked here is the form of the files; GnuTLS reads them when the server starts, and a
/// certificate it cannot read, or a key that is not the certificate's, makes ``SyncHTTPServer``'s
/// initializer throw with GnuTLS's reason.
public struct SyncHTTPTLS: Sendable, CustomStringConvertible {
    /// The certificate chain, PEM: the server's certificate first.
    public let certificatePEM: String
    /// The private key, PEM. Not shown by ``description``.
    let privateKeyPEM: String

    /// The largest certificate file read: a chain of a few certificates is a few kilobytes.
    static let maximumCertificateBytes = 1 << 20

    /// A certificate chain and its private key, as PEM text.
    ///
    /// ```swift
    /// let tls = try SyncHTTPTLS(certificatePEM: chain, privateKeyPEM: key)
    /// ```
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/invalidArgument(_:)`` when `certificatePEM` holds no PEM
    ///   certificate, or `privateKeyPEM` no PEM private key, or an encrypted one (which the server could
    ///   only open with a password typed at each start).
    public init(certificatePEM: String, privateKeyPEM: String) throws {
        try Self.check(certificatePEM: certificatePEM, privateKeyPEM: privateKeyPEM, certificateSource: "the certificate", keySource: "the key")
        self.certificatePEM = certificatePEM
        self.privateKeyPEM = privateKeyPEM
    }

    /// The certificate chain in `certificateFile` and the private key in `privateKeyFile`, both PEM.
    ///
    /// ```swift
    /// let tls = try SyncHTTPTLS(certificateFile: URL(fileURLWithPath: "server.pem"),
    ///                           privateKeyFile: URL(fileURLWithPath: "server.key"))
    /// ```
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/invalidArgument(_:)`` when a file cannot be read, when the
    ///   key file's group or others may read or write it (saying the `chmod 600` to run), or when the
    ///   files do not hold what ``init(certificatePEM:privateKeyPEM:)`` needs.
    public init(certificateFile: URL, privateKeyFile: URL) throws {
        let certificate = try Self.readCertificate(certificateFile)
        let keyBytes = try SecretFile.read(privateKeyFile, what: "TLS private key")
        guard let key = String(validating: keyBytes, as: UTF8.self) else {
            throw BoutiqueError.invalidArgument("the TLS private key file \(privateKeyFile.path) is not PEM text")
        }
        try Self.check(
            certificatePEM: certificate, privateKeyPEM: key, certificateSource: "the TLS certificate file \(certificateFile.path)",
            keySource: "the TLS private key file \(privateKeyFile.path)")
        certificatePEM = certificate
        privateKeyPEM = key
    }

    /// Says how many certificates there are, never the key.
    public var description: String {
        "SyncHTTPTLS(certificates: \(Self.blocks(in: certificatePEM, labelled: "CERTIFICATE")), private key: hidden)"
    }

    private static func readCertificate(_ file: URL) throws -> String {
        let data: Data
        do { data = try Data(contentsOf: file) } catch {
            throw BoutiqueError.invalidArgument("cannot read the TLS certificate file \(file.path): \(error.localizedDescription)")
        }
        guard data.count <= maximumCertificateBytes else {
            throw BoutiqueError.invalidArgument("the TLS certificate file \(file.path) is larger than 1 MB; is it the right file?")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw BoutiqueError.invalidArgument("the TLS certificate file \(file.path) is not PEM text")
        }
        return text
    }

    /// The mistakes told apart here: files swapped, a key or certificate missing, an encrypted key.
    private static func check(certificatePEM: String, privateKeyPEM: String, certificateSource: String, keySource: String) throws {
        guard blocks(in: certificatePEM, labelled: "CERTIFICATE") > 0 else {
            let swapped = certificatePEM.range(of: "PRIVATE KEY-----") != nil
            throw BoutiqueError.invalidArgument(
                "\(certificateSource) holds no PEM certificate (-----BEGIN CERTIFICATE-----)"
                    + (swapped ? "; it holds a private key: are the certificate and key swapped?" : ""))
        }
        let encrypted = privateKeyPEM.range(of: "-----BEGIN ENCRYPTED PRIVATE KEY-----") != nil || privateKeyPEM.range(of: "Proc-Type: 4,ENCRYPTED") != nil
        if encrypted {
            throw BoutiqueError.invalidArgument(
                "\(keySource) holds an encrypted private key, which the server cannot open unattended; "
                    + "write it unencrypted, readable by its owner only: openssl pkey -in KEY -out PLAIN.key")
        }
        guard privateKeyPEM.range(of: #"-----BEGIN ([A-Z]+ )?PRIVATE KEY-----"#, options: .regularExpression) != nil else {
            throw BoutiqueError.invalidArgument("\(keySource) holds no PEM private key (-----BEGIN PRIVATE KEY-----)")
        }
    }

    /// How many PEM blocks labelled `label` the text holds.
    private static func blocks(in text: String, labelled label: String) -> Int {
        text.components(separatedBy: "-----BEGIN \(label)-----").count - 1
    }
}
