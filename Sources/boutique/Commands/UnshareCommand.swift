/// `boutique unshare --server URL --token TOKEN --table T --key K --with USER`.
enum UnshareCommand: Command {
    static let name = "unshare"
    static let summary = "stop sharing a root row's space with a user"
    static let help = """
        usage: boutique unshare --server URL (--token TOKEN | --token-file FILE) --table T --key K --with USER
                                [--ca-file FILE]

        Removes USER from the space of row K of the root table T; their devices delete the space's rows
        on their next sync (nothing of it is pushed back). Only the space's owner may. Prints the members
        after it, one `USER ROLE` line each; a refusal is printed with the server's reason and the tool
        exits 1. A UUID key K may be written in upper or lower case.

        --token-file FILE (readable by its owner only) or the environment variable BOUTIQUE_SYNC_TOKEN
        gives the token without putting it on the command line.

        \(CAFileArgument.help)
        """

    static func run(_ arguments: inout ArgumentParser) async throws {
        let client = try MembershipClient(&arguments)
        guard let user = try arguments.takeOption("--with"), !user.isEmpty else { throw UsageError("--with USER is required") }
        try arguments.finish()
        try await client.send(.unshare, user: user)
    }
}
