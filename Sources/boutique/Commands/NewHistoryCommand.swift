import BoutiqueDB

/// `boutique new-history (--store FILE | --store-dir DIR | --postgres URL)`: marks a store restored by
/// means that do not mark it themselves, so that devices take its state again.
enum NewHistoryCommand: Command {
    static let name = "new-history"
    static let summary = "mark a sync store restored from a copy, so that every device takes its state again"
    static let help = """
        usage: boutique new-history (--store FILE | --store-dir DIR | --postgres URL | --postgres-url-file FILE)

        Gives the server's store (as `boutique serve` takes it; BOUTIQUE_POSTGRES_URL when no store is
        named) a new history of its log. Run it once on a store restored from a copy made by other means
        than `boutique backup` (a copy of the file or the --store-dir directory, a file-system snapshot,
        a PostgreSQL base backup or snapshot), before serving it: past the point the copy was made, the
        restored server logs other changes than the original did under the same positions, and a device
        that pulled those positions from the original must not pull on from them. With a new history,
        every device, at its next sync, sends again its own writes the store lacks and takes the
        server's state again, merging and dropping nothing.

        Copies made by `boutique backup` and PostgreSQL dumps restored with `pg_restore` need nothing:
        they are told apart by themselves. Running it on a store that was not restored costs every
        device a new download of the server's state, and loses nothing. Run it with the server stopped:
        a running server keeps answering with the history it read when it started.
        """

    static func run(_ arguments: inout ArgumentParser) async throws {
        guard let location = try ServerStore.Location.take(&arguments) else { throw UsageError(ServerStore.Location.missing) }
        try arguments.finish()
        guard location.exists else { throw UsageError("no such store: \(location.path)") }
        let opened = try await ServerStore.open(location)
        do {
            try await opened.store.startNewHistory()
        } catch {
            await opened.close()
            throw error
        }
        await opened.close()
        // A PostgreSQL URL may hold a password: not printed.
        let named: String
        if case .postgres = location { named = "the PostgreSQL store" } else { named = location.path }
        Output.line("gave \(named) a new history: each device takes its state again at its next sync")
    }
}
