import BoutiqueSync

/// `boutique share --server URL --token TOKEN --table T --key K --with USER --role viewer|editor`.
enum ShareCommand: Command {
    static let name = "share"
    static let summary = "share a root row's space (a list and what follows it) with another user"
    static let help = """
        usage: boutique share --server URL (--token TOKEN | --token-file FILE) --table T --key K --with USER --role viewer|editor
                              [--ca-file FILE]

        Shares the space of row K of the root table T (see `boutique serve --rules`) with USER, as a
        viewer (reads) or an editor (reads and writes); sharing with a member again changes their role.
        Only the space's owner — the user who created the row, whose token TOKEN is — may. Prints the
        members after it, one `USER ROLE` line each; a refusal is printed with the server's reason and
        the tool exits 1. USER's devices receive the space on their next sync. K is the row's key as
        text; a UUID key may be written in upper or lower case.

        --token-file FILE (readable by its owner only) or the environment variable BOUTIQUE_SYNC_TOKEN
        gives the token without putting it on the command line.

        \(CAFileArgument.help)
        """

    static func run(_ arguments: inout ArgumentParser) async throws {
        let client = try MembershipClient(&arguments)
        guard let user = try arguments.takeOption("--with"), !user.isEmpty else { throw UsageError("--with USER is required") }
        guard let roleText = try arguments.takeOption("--role") else { throw UsageError("--role viewer|editor is required") }
        guard let role = SyncRole(rawValue: roleText), role != .owner else {
            throw UsageError("--role takes viewer or editor, not '\(roleText)'")
        }
        try arguments.finish()
        try await client.send(.share, user: user, role: role)
    }
}
