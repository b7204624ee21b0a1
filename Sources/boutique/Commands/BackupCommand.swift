import BoutiqueDB
import Foundation

/// `boutique backup --store FILE --out FILE [--force]`: a consistent copy of a SQLite sync store,
/// made while `boutique serve` keeps serving it.
enum BackupCommand: Command {
    static let name = "backup"
    static let summary = "copy a sync server's SQLite store while it serves"
    static let help = """
        usage: boutique backup --store FILE --out FILE [--force]

        Copies the SQLite store FILE that `boutique serve --store FILE` keeps (serving or not) into the
        file --out names: one consistent copy, as the store was when the copy began, of every tenant.
        The server goes on serving meanwhile; a write waits for nothing. The copy is written beside
        --out first and renamed into place once complete, readable by its owner only, so that --out
        is never a partial copy. An existing --out is refused unless --force replaces it.

        Restore by serving the copy: `boutique serve --store COPY`. It is the same server to devices
        (the store's identity is copied with it), with a history of its own: the copy logs other
        changes than the original past the point it was made, so each device, at its next sync, sends
        again its own writes the copy lacks (rebuilt from its rows, with their original stamps, so a
        newer value elsewhere still wins) and downloads the server's state again, merging and dropping
        nothing, instead of pulling on from where it was in the original's log; the other devices then
        pull those writes. Nothing is asked of the operator, except that a write acknowledged after the
        copy comes back only from the device that made it, when it syncs again.
        """

    static func run(_ arguments: inout ArgumentParser) async throws {
        guard let store = try arguments.takeOption("--store") else { throw UsageError("--store FILE is required") }
        guard let out = try arguments.takeOption("--out") else { throw UsageError("--out FILE is required") }
        let force = arguments.takeFlag("--force")
        try arguments.finish()
        let copied = try StoreBackup.copy(store: store, to: out, replacing: force)
        Output.line("copied \(store) to \(out) (\(Plural.count(copied, "byte")))")
    }
}
