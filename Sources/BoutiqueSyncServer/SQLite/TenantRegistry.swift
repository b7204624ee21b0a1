import BoutiqueDB
import BoutiqueSQLite

/// The tenants of a ``SQLiteTenantFilesStore`` and the names of their files, kept in the store's main
/// file: a tenant is registered once its first transaction committed, and from then on its reads and
/// writes go to its file.
///
/// ```swift
/// let registry = TenantRegistry(database: main)
/// let file = try await registry.register("acme")    // "5c0f…e1.db", the same on every call
/// let known = try await registry.file(of: "acme")   // nil for a tenant never registered
/// ```
///
/// Names are cached once read: a tenant's file never changes. Another process on the same directory (an
/// operator's `boutique owner`) registers a tenant under the same name, made from the tenant's digest,
/// so a registration from either process is the one both use.
final class TenantRegistry: Sendable {
    private let database: DatabaseActor
    private let known = Lock<[String: String]>([:])

    /// The main file's migrations: the one-file store's tables (its identity is the server's; its tenant
    /// tables stay empty) and the registry, each where it came: the registry's after the store's
    /// first eight, then the history, then the store's later ones. A main file's applied ids stay a
    /// prefix of the plan.
    static let plan: BoutiqueMigrationPlan = {
        let store = SQLiteSyncStoreSchema.plan.migrations
        let history = store.firstIndex { $0.id == SQLiteSyncStoreSchema.historyMigration.id } ?? store.count
        let registry = BoutiqueMigration("boutique_sync_server_tenant_files_v1") { conn in
            try conn.execute("""
                CREATE TABLE boutique_sync_server_tenant_file(tenant TEXT PRIMARY KEY NOT NULL, file TEXT NOT NULL UNIQUE) WITHOUT ROWID;
                """)
        }
        return BoutiqueMigrationPlan(Array(store[..<history]) + [registry] + Array(store[history...]))
    }()

    /// The registry in `database`, migrated with ``plan``.
    init(database: DatabaseActor) { self.database = database }

    /// The name of `tenant`'s file, `nil` when the tenant was never registered.
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/invalidArgument(_:)`` when the registry holds a name that
    ///   is not a tenant file's (see ``TenantFileName/check(_:)``).
    func file(of tenant: String) async throws -> String? {
        if let file = known.withLock({ $0[tenant] }) { return file }
        let file = try await database.read { conn -> String? in
            guard case .text(let file) = try conn.connection.cachedRows(
                "SELECT file FROM boutique_sync_server_tenant_file WHERE tenant = ?", [.text(tenant)]).first?.first
            else { return nil }
            return file
        }
        guard let file else { return nil }
        return try remember(file, of: tenant)
    }

    /// Registers `tenant` (when it is not yet) and returns the name of its file.
    func register(_ tenant: String) async throws -> String {
        if let file = try await file(of: tenant) { return file }
        let made = try TenantFileName.forTenant(tenant)
        let file = try await database.write { conn -> String? in
            try conn.connection.execute(
                "INSERT OR IGNORE INTO boutique_sync_server_tenant_file(tenant, file) VALUES (?, ?)", [.text(tenant), .text(made)])
            guard case .text(let file) = try conn.connection.cachedRows(
                "SELECT file FROM boutique_sync_server_tenant_file WHERE tenant = ?", [.text(tenant)]).first?.first
            else { return nil }
            return file
        }
        guard let file else { throw BoutiqueError.invalidArgument("the tenant registry did not keep the tenant '\(tenant.prefix(80))'") }
        return try remember(file, of: tenant)
    }

    /// Every registered tenant, in byte order of their names.
    func tenants() async throws -> [String] {
        try await database.read { conn in
            try conn.connection.cachedRows("SELECT tenant FROM boutique_sync_server_tenant_file ORDER BY tenant", []).compactMap { row in
                guard case .text(let tenant) = row.first else { return nil }
                return tenant
            }
        }
    }

    private func remember(_ file: String, of tenant: String) throws -> String {
        try TenantFileName.check(file)
        known.withLock { $0[tenant] = file }
        return file
    }
}
