import BoutiqueDB
import BoutiqueSyncServer
import Foundation

/// What `boutique owner` and the operator's `boutique members` have in common: the server's store
/// (`--store FILE`, `--store-dir DIR`, `--postgres URL`, `--postgres-url-file FILE` or `$BOUTIQUE_POSTGRES_URL`, as
/// `boutique serve` takes it), the tenant, and the root row (`--table T --key K`, a text key).
///
/// The store is opened directly, as the server's operator, with no token: run it where the server
/// runs, with the same access to its store.
struct OperatorSpace {
    let store: ServerStore.Location?
    let tenant: String?
    let table: String
    let key: String

    init(_ arguments: inout ArgumentParser) throws {
        store = try ServerStore.Location.take(&arguments)
        tenant = try arguments.takeOption("--tenant")
        guard let table = try arguments.takeOption("--table"), !table.isEmpty else { throw UsageError("--table is required") }
        guard let key = try arguments.takeOption("--key"), !key.isEmpty else { throw UsageError("--key is required") }
        self.table = table
        self.key = key
    }

    /// Opens the store, runs `body` with a server over it (no rules: the operator's calls need none)
    /// and the tenant, and closes the store.
    @MainActor
    func run<T: Sendable>(_ body: (SyncServer, String) async throws -> T) async throws -> T {
        guard let store else { throw UsageError(ServerStore.Location.missing) }
        // Opening a SQLite store creates it: a mistyped path must not become a new, empty store.
        guard store.exists else { throw UsageError("no such store: \(store.path)") }
        let opened = try await ServerStore.open(store)
        do {
            let server = SyncServer(store: opened.store)
            let result = try await body(server, try await chosenTenant(in: opened.store))
            await opened.close()
            return result
        } catch {
            await opened.close()
            throw error
        }
    }

    /// `--tenant`, or the store's only tenant when it is left out.
    private func chosenTenant(in store: any SyncStore) async throws -> String {
        if let tenant { return tenant }
        let tenants = try await store.tenants()
        guard tenants.count == 1, let only = tenants.first else {
            let named = tenants.prefix(20).map { "'\($0)'" }.joined(separator: ", ")
            throw UsageError(
                tenants.isEmpty ? "the store holds no tenant yet" : "the store holds \(tenants.count) tenants (\(named)); name one with --tenant ID")
        }
        return only
    }
}
