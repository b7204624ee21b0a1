import BoutiqueSyncServer
import Foundation

/// Secrets a command needs — a bearer token, a PostgreSQL URL with its password — read from a file or
/// the environment as well as from a flag, so that none has to be on a command line, where every user
/// of the machine can read it (`ps`, `/proc/PID/cmdline`) and shells keep it in their history. A file
/// is refused when its group or others may read or write it, as the token secret is.
enum SecretArguments {
    /// The environment variable a bearer token is read from when no flag gives one.
    static let tokenVariable = "BOUTIQUE_SYNC_TOKEN"
    /// The environment variable `serve` reads its PostgreSQL URL from when no flag names a store.
    static let postgresVariable = "BOUTIQUE_POSTGRES_URL"

    /// `--token TOKEN`, `--token-file PATH` or `$BOUTIQUE_SYNC_TOKEN`, in that order; one flag at most.
    static func token(_ arguments: inout ArgumentParser) throws -> String {
        let given = try arguments.takeOption("--token")
        let file = try arguments.takeOption("--token-file")
        if given != nil, file != nil { throw UsageError("give --token or --token-file, not both") }
        if let given { return given }
        if let file {
            let token = try text(of: file, what: "token")
            guard !token.isEmpty else { throw UsageError("the token file \(file) is empty") }
            return token
        }
        if let variable = ProcessInfo.processInfo.environment[tokenVariable], !variable.isEmpty { return variable }
        throw UsageError("--token TOKEN, --token-file FILE or \(tokenVariable) is required")
    }

    /// `--postgres URL`, `--postgres-url-file PATH`, or — when neither these nor a SQLite store
    /// (`storeFlag`, given as `store`) is given — `$BOUTIQUE_POSTGRES_URL`; `nil` for none. Two of them,
    /// or one with the SQLite store, is a usage error.
    static func postgresURL(_ arguments: inout ArgumentParser, store: String?, storeFlag: String = "--store") throws -> String? {
        let given = try arguments.takeOption("--postgres")
        let file = try arguments.takeOption("--postgres-url-file")
        if given != nil, file != nil { throw UsageError("give --postgres or --postgres-url-file, not both") }
        if store != nil, given != nil || file != nil {
            throw UsageError("\(storeFlag) and --\(given != nil ? "postgres" : "postgres-url-file") name two stores; give one")
        }
        if let given {
            // Refused, not warned about: by the time a warning is read, the password has been in `ps`.
            guard !containsPassword(given) else {
                throw UsageError(
                    "--postgres URL holds a password, which every user of this machine can read (ps, /proc/PID/cmdline); "
                        + "put the URL in a file only you can read and give --postgres-url-file FILE "
                        + "(umask 077; printf '%s\\n' 'postgresql://…' > FILE), or set \(postgresVariable)")
            }
            return given
        }
        if let file {
            let url = try text(of: file, what: "PostgreSQL URL")
            guard !url.isEmpty else { throw UsageError("the PostgreSQL URL file \(file) is empty") }
            return url
        }
        guard store == nil, let variable = ProcessInfo.processInfo.environment[postgresVariable], !variable.isEmpty else {
            return nil
        }
        return variable
    }

    /// Whether a libpq connection string carries a password: in a URI's user part
    /// (`postgresql://user:PASSWORD@host`) or its `password=` parameter, or as the `password` keyword
    /// of the `key=value` form.
    static func containsPassword(_ connection: String) -> Bool {
        let lowered = connection.lowercased()
        guard let scheme = ["postgresql://", "postgres://"].first(where: lowered.hasPrefix) else {
            return lowered.range(of: #"(^|\s)password\s*="#, options: .regularExpression) != nil
        }
        let rest = connection.dropFirst(scheme.count)
        let authority = rest.prefix { $0 != "/" && $0 != "?" }
        if let at = authority.lastIndex(of: "@"), authority[..<at].contains(":") { return true }
        guard let question = rest.firstIndex(of: "?") else { return false }
        return rest[rest.index(after: question)...].split(separator: "&").contains { parameter in
            parameter.prefix { $0 != "=" }.lowercased() == "password"
        }
    }

    private static func text(of path: String, what: String) throws -> String {
        let bytes = try SecretFile.read(URL(fileURLWithPath: path), what: what)
        guard let text = String(validating: bytes, as: UTF8.self), !text.contains("\n"), !text.contains("\0") else {
            throw BoutiqueError.invalidArgument("the \(what) file \(path) must hold one line of text")
        }
        return text
    }
}
