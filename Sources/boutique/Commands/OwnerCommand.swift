import BoutiqueDB

/// `boutique owner (--store FILE | --store-dir DIR) [--tenant ID] --table T --key K --user U`: gives a root row's space an
/// owner, as the server's operator.
enum OwnerCommand: Command {
    static let name = "owner"
    static let summary = "make a user the owner of a root row's space (the server operator's repair)"
    static let help = """
        usage: boutique owner (--store FILE | --store-dir DIR | --postgres URL | --postgres-url-file FILE)
                              [--tenant ID] --table T --key K --user U

        Makes U the owner of the space of row K of the root table T (see `boutique serve --rules`), in
        the server's store (as `boutique serve` takes it; BOUTIQUE_POSTGRES_URL when no store is named),
        as its operator: for a space that has no owner — a row inserted by trusted server code, or
        before the rules made T a root — so that nobody can share it, or one whose owner must change.
        A space has one owner: the one it had stays a member, as an editor. U's devices receive the
        space on their next sync; U may then share it with `boutique share`. Prints the members after
        it, one `USER ROLE` line each, owner first.

        ID may be left out when the store holds one tenant. K is the row's key as text; a UUID key may
        be written in upper or lower case. A tenant, table or row the store does not hold, or a row that
        lives in another row's space, is an error (exit 1) and changes nothing.
        """

    static func run(_ arguments: inout ArgumentParser) async throws {
        let space = try OperatorSpace(&arguments)
        guard let user = try arguments.takeOption("--user"), !user.isEmpty else { throw UsageError("--user U is required") }
        try arguments.finish()
        let key = DatabaseValue.text(space.key)
        let members = try await space.run { server, tenant in
            try await server.makeOwner(user, table: space.table, key: key, tenant: tenant)
        }
        for member in members { Output.line(member.description) }
    }
}
