import BoutiqueDB

/// `boutique members --server URL --token TOKEN --table T --key K`, a member's question, or
/// `boutique members (--store FILE | --store-dir DIR) [--tenant ID] --table T --key K`, the server operator's.
enum MembersCommand: Command {
    static let name = "members"
    static let summary = "list who a root row's space is shared with, and their roles"
    static let help = """
        usage: boutique members --server URL (--token TOKEN | --token-file FILE) --table T --key K
                                [--ca-file FILE]
               boutique members (--store FILE | --store-dir DIR | --postgres URL | --postgres-url-file FILE) [--tenant ID]
                               --table T --key K

        Prints the members of the space of row K of the root table T, one `USER ROLE` line each, owner
        first. A UUID key K may be written in upper or lower case.

        With --server, it asks the sync server as the user TOKEN names: any member may ask; anyone else
        is refused (exit 1) without learning whether the row exists. --token-file FILE (readable by its
        owner only) or the environment variable BOUTIQUE_SYNC_TOKEN gives the token without putting it
        on the command line.

        With a store (as `boutique serve` takes it; BOUTIQUE_POSTGRES_URL when neither --server nor a
        store is given), it reads the server's store directly, as its operator, with no token: the
        members of tenant ID's space (ID may be left out when the store holds one tenant). A space with
        no member prints nothing. A tenant, table or row the store does not hold is an error (exit 1).
        See `boutique owner` to give a space an owner.

        \(CAFileArgument.help)
        """

    static func run(_ arguments: inout ArgumentParser) async throws {
        guard !arguments.has("--server") else {
            let client = try MembershipClient(&arguments)
            try arguments.finish()
            try await client.send(.members)
            return
        }
        let space = try OperatorSpace(&arguments)
        try arguments.finish()
        let key = DatabaseValue.text(space.key)
        let members = try await space.run { server, tenant in try await server.members(table: space.table, key: key, tenant: tenant) }
        for member in members { Output.line(member.description) }
    }
}
