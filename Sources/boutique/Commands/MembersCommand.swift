/// `boutique members --server URL --token TOKEN --table T --key K`.
enum MembersCommand: Command {
    static let name = "members"
    static let summary = "list who a root row's space is shared with, and their roles"
    static let help = """
        usage: boutique members --server URL (--token TOKEN | --token-file FILE) --table T --key K

        Prints the members of the space of row K of the root table T, one `USER ROLE` line each, owner
        first. Any member may ask; anyone else is refused (exit 1) without learning whether the row
        exists. A UUID key K may be written in upper or lower case.

        --token-file FILE (readable by its owner only) or the environment variable BOUTIQUE_SYNC_TOKEN
        gives the token without putting it on the command line.
        """

    static func run(_ arguments: inout ArgumentParser) async throws {
        let client = try MembershipClient(&arguments)
        try arguments.finish()
        try await client.send(.members)
    }
}
