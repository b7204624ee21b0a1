import BoutiqueSync
import Foundation

/// `--ca-file FILE`, which `sync`, `share`, `unshare` and `members` take to reach an `https://` server
/// whose certificate a private authority signed: the PEM certificate(s) of that authority, trusted
/// instead of the system's for this command's requests.
enum CAFileArgument {
    /// The help text's description of the flag.
    static let help = """
        --ca-file FILE trusts the certificate authority whose PEM certificate is in FILE (one or more), instead
        of the system's, for an https:// server whose certificate a private authority signed (see
        `boutique serve --tls-cert`). Verification stays on: a server not signed by it, or whose certificate
        does not name the URL's host, is refused (exit 1).
        """

    /// The trust `--ca-file FILE` (read as `file`) names for `server`, or the system's when it was not given.
    static func trust(_ file: String?, server: URL) throws -> SyncServerTrust {
        guard let file else { return .system }
        guard server.scheme?.lowercased() == "https" else {
            throw UsageError("--ca-file is for an https:// server; \(server.absoluteString) is plain http")
        }
        return try SyncServerTrust.certificateAuthority(file: URL(fileURLWithPath: file))
    }
}
