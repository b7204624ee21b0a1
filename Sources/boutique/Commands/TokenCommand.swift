import BoutiqueSyncServer
import Foundation

/// `boutique token --secret-file FILE --tenant T --user U [--expires DURATION]`: a device's bearer token.
enum TokenCommand: Command {
    static let name = "token"
    static let summary = "print a sync token for a user of a tenant, signed with the server's secret"
    static let help = """
        usage: boutique token --secret-file FILE --tenant T --user U [--expires DURATION]

        Prints a bearer token for `boutique sync --token` (or `.http(url, token:)`), signed with
        HMAC-SHA256 under the secret in FILE — the file `boutique serve --secret-file` reads. The token
        opens tenant T's data to user U until it expires: DURATION is like 90s, 15m, 12h, 30d or 2w
        (30d when left out). Make a secret once with `(umask 077; openssl rand -base64 32 > FILE)`: the
        file must be readable by its owner only (chmod 600 FILE), and the secret at least 32 bytes and
        not guessable (one byte repeated, a short pattern repeated, too few distinct bytes are refused).
        T and U are 1 to 256 bytes in Unicode NFC without control characters: the server compares names
        as bytes, so each has one spelling.
        """

    static func run(_ arguments: inout ArgumentParser) async throws {
        guard let secretFile = try arguments.takeOption("--secret-file") else { throw UsageError("--secret-file is required") }
        guard let tenant = try arguments.takeOption("--tenant") else { throw UsageError("--tenant is required") }
        guard let user = try arguments.takeOption("--user") else { throw UsageError("--user is required") }
        let lifetime = try arguments.takeOption("--expires").map { try DurationText.seconds($0, option: "--expires") } ?? 30 * 86_400
        try arguments.finish()
        let signer = try SyncTokenSigner(secretFile: URL(fileURLWithPath: secretFile))
        Output.line(try signer.token(tenant: tenant, user: user, expiresAt: Date().addingTimeInterval(TimeInterval(lifetime))))
    }
}
