import BoutiqueSQLite
import BoutiqueSync
@testable import BoutiqueSyncServer
import Foundation
import Testing

/// What the directory store adds to the contract every store keeps (`SyncStoreContractTests` runs on it
/// too): a file per tenant named without the tenant's text, a bounded number open, and a writer per
/// tenant.
@Suite struct SQLiteTenantFilesStoreTests {
    /// The tenants whose rows each file of `directory/tenants` holds, by file name (`-wal` and `-shm`
    /// left out), read with connections of the test's own.
    static func tenantsByFile(in directory: URL) throws -> [String: Set<String>] {
        let folder = directory.appendingPathComponent("tenants")
        var found: [String: Set<String>] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".db") {
            let connection = try Connection(path: folder.appendingPathComponent(name).path, flags: [.readOnly])
            defer { connection.close() }
            found[name] = Set(try connection.cachedRows("SELECT DISTINCT tenant FROM boutique_sync_server_log", []).compactMap { row in
                guard case .text(let tenant) = row.first else { return nil }
                return tenant
            })
        }
        return found
    }

    @Test func eachTenantsDataLandsInAFileOfItsOwnNamedByItsDigest() async throws {
        let workspace = try SyncTemporaryDirectory()
        let directory = workspace.file("store")
        let store = try await SQLiteTenantFilesStore.open(directory: directory)
        let server = SyncStoreContractTests.server(store)
        let tenants = ["acme", "../x", "a/b", "/etc/passwd"]
        for tenant in tenants {
            let pushed = try await SyncStoreContractTests.push(server, [SyncStoreContractTests.transaction(1)], tenant: tenant)
            #expect(pushed.outcome == .accepted)
        }
        let byFile = try Self.tenantsByFile(in: directory)
        #expect(byFile.count == 4, "\(byFile)")
        #expect(Set(byFile.values) == Set(tenants.map { Set([$0]) }), "each file holds one tenant's log: \(byFile)")
        for tenant in tenants {
            let name = try TenantFileName.forTenant(tenant)
            #expect(byFile[name] == [tenant])
            #expect(name.utf8.count == 67 && name.allSatisfy { $0.isHexDigit || $0 == "." }, "\(name)")
        }
        // Nothing was made from a name's text: not beside the store, not in it, not under it.
        #expect(!FileManager.default.fileExists(atPath: workspace.file("x").path))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("tenants/a").path))
        let top = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { !$0.hasPrefix("main.db") }
        #expect(top == ["tenants"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.url.path) == ["store"])
        #expect(try await store.tenants() == tenants.sorted())
        for tenant in tenants {
            #expect(try await SyncStoreContractTests.log(server, tenant: tenant).count == 1)
        }
        await store.close()
        // The main file holds no tenant's rows.
        let main = try Connection(path: directory.appendingPathComponent("main.db").path, flags: [.readOnly])
        defer { main.close() }
        #expect(try main.cachedRows("SELECT count(*) FROM boutique_sync_server_log", []) == [[.integer(0)]])
    }

    @Test func aMainFileMigratedByAnEarlierServerOpensAndUpgrades() async throws {
        // The main file's migrations as the first servers with tenant files applied them.
        let released = (1...8).map { "boutique_sync_server_v\($0)" }
        let earlier = TenantRegistry.plan.migrations.filter { migration in
            released.contains { migration.id == $0 || migration.id.hasPrefix($0 + "_") }
                || ["boutique_sync_server_tenant_files_v1", "boutique_sync_server_v9_history"].contains(migration.id)
        }
        #expect(earlier.map(\.id).last == "boutique_sync_server_v9_history" && earlier.count == 10, "\(earlier.map(\.id))")
        let workspace = try SyncTemporaryDirectory()
        let directory = workspace.file("store")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let old = try await DatabaseActor.open(url: directory.appendingPathComponent("main.db"), migrations: BoutiqueMigrationPlan(earlier))
        await old.close()

        let store = try await SQLiteTenantFilesStore.open(directory: directory)
        let pushed = try await SyncStoreContractTests.push(SyncStoreContractTests.server(store), [SyncStoreContractTests.transaction(1)])
        #expect(pushed.outcome == .accepted)
        await store.close()
    }

    /// `boutique_log_entries` is read at every metrics scrape: counting opens no tenant's file, however
    /// many tenants there are and however few files may be open.
    @Test func countingTheLogOpensNoFile() async throws {
        let workspace = try SyncTemporaryDirectory()
        let store = try await SQLiteTenantFilesStore.open(directory: workspace.file("store"), openFileLimit: 1)
        let server = SyncStoreContractTests.server(store)
        for (index, tenant) in ["a", "b", "c"].enumerated() {
            let transaction = SyncStoreContractTests.transaction(1, keys: (0...index).map { .text("k\($0)") })
            let pushed = try await SyncStoreContractTests.push(server, [transaction], tenant: tenant)
            #expect(pushed.outcome == .accepted, "\(pushed)")
        }
        let opened = await store.filesOpenedCount
        #expect(try await server.logEntryCount() == 1 + 2 + 3)
        #expect(await store.filesOpenedCount == opened, "no file opened to count")
        await store.close()
    }

    /// Tenants' names come from tokens: a tenant that never committed a transaction takes no room.
    /// Its reads find nothing and make no file; a first transaction that fails leaves neither a file
    /// nor a registered tenant; one that commits registers its tenant.
    @Test func aTenantIsRegisteredOnlyByATransactionThatCommits() async throws {
        struct Refused: Error {}
        let workspace = try SyncTemporaryDirectory()
        let directory = workspace.file("store")
        let store = try await SQLiteTenantFilesStore.open(directory: directory)
        let server = SyncStoreContractTests.server(store)
        let pulled = try await server.pull(PullRequest(replica: "r", cursor: 0, limit: 10), tenant: "stranger")
        #expect(pulled.outcome == .changes && pulled.changes.isEmpty)
        _ = try await server.snapshot(SnapshotRequest(replica: "r", after: nil, limit: 10), tenant: "stranger")
        try await server.writePullCursors()
        await #expect(throws: Refused.self) {
            try await store.transaction(tenant: "failed") { store in
                try store.setClock(HybridTimestamp(milliseconds: SyncStoreContractTests.wall))
                throw Refused()
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("tenants").path) == [])
        #expect(try await store.tenants() == [])
        #expect(try await SyncStoreContractTests.push(server, [SyncStoreContractTests.transaction(1)], tenant: "failed").outcome == .accepted)
        #expect(try await store.tenants() == ["failed"])
        #expect(try Self.tenantsByFile(in: directory) == [try TenantFileName.forTenant("failed"): ["failed"]])
        await store.close()
    }

    @Test func aRegistryNamingAFileOutsideTheDirectoryIsRefused() async throws {
        let workspace = try SyncTemporaryDirectory()
        let directory = workspace.file("store")
        let store = try await SQLiteTenantFilesStore.open(directory: directory)
        _ = try await store.transaction(tenant: "acme") { store in try store.reserveSequence() }
        await store.close()
        let main = try Connection(path: directory.appendingPathComponent("main.db").path, flags: [.readWrite])
        try main.execute("UPDATE boutique_sync_server_tenant_file SET file = '../../evil.db' WHERE tenant = 'acme'")
        main.close()

        let reopened = try await SQLiteTenantFilesStore.open(directory: directory)
        await #expect(throws: BoutiqueError.self) {
            try await reopened.transaction(tenant: "acme") { store in try store.latestSequence() }
        }
        await #expect(throws: BoutiqueError.self) {
            try await reopened.read(tenant: "acme") { store in try store.latestSequence() }
        }
        await reopened.close()
        #expect(!FileManager.default.fileExists(atPath: workspace.file("evil.db").path))
        #expect(!FileManager.default.fileExists(atPath: workspace.url.deletingLastPathComponent().appendingPathComponent("evil.db").path))
    }

    @Test func aTenantFileClosedToMakeRoomReopensWithItsData() async throws {
        let workspace = try SyncTemporaryDirectory()
        let directory = workspace.file("store")
        let store = try await SQLiteTenantFilesStore.open(directory: directory, openFileLimit: 1)
        let server = SyncStoreContractTests.server(store)
        let identity = try await store.identity()
        #expect(identity != nil)
        _ = try await SyncStoreContractTests.push(server, [SyncStoreContractTests.transaction(1, title: "first")], tenant: "first")
        let firstFile = try store.fileURL(of: "first")
        #expect(FileManager.default.fileExists(atPath: firstFile.path + "-wal"), "the first tenant's file is open")
        _ = try await SyncStoreContractTests.push(server, [SyncStoreContractTests.transaction(1, title: "second")], tenant: "second")
        #expect(await store.openFileCount == 1)
        // SQLite removes a file's log when its last connection closes.
        #expect(!FileManager.default.fileExists(atPath: firstFile.path + "-wal"), "the first tenant's file was closed for the second")

        let first = try await SyncStoreContractTests.log(server, tenant: "first")
        #expect(first.map { $0.change.columns.first?.value } == [.text("first")])
        let second = try await SyncStoreContractTests.log(server, tenant: "second")
        #expect(second.map { $0.change.columns.first?.value } == [.text("second")])
        // Every tenant goes on where it was: the next transaction of the first continues its log.
        let pushed = try await SyncStoreContractTests.push(
            server, [SyncStoreContractTests.transaction(2, keys: [.text("j")])], tenant: "first", base: 1,
            digest: try await server.pull(PullRequest(replica: "r", cursor: 0, limit: 10), tenant: "first").replicaDigest)
        #expect(pushed.outcome == .accepted && pushed.appliedThrough == 2)
        await store.close()

        let reopened = try await SQLiteTenantFilesStore.open(directory: directory)
        #expect(try await reopened.identity() == identity, "the identity is the main file's, made once")
        #expect(try await reopened.tenants() == ["first", "second"])
        #expect(try await SyncStoreContractTests.log(SyncStoreContractTests.server(reopened), tenant: "first").count == 2)
        await reopened.close()
    }

    @Test func aFileInUseIsNotClosedForAnotherTenantWhichWaits() async throws {
        let workspace = try SyncTemporaryDirectory()
        let store = try await SQLiteTenantFilesStore.open(directory: workspace.file("store"), openFileLimit: 1)
        _ = try await store.transaction(tenant: "held") { store in try store.reserveSequence() }
        let gate = TenantIsolationTests.Gate()
        let held = Task { try await store.read(tenant: "held") { store in
            gate.hold()
            return try store.latestSequence()
        } }
        try await waitUntil("the held tenant's read holds its file") { gate.entered }
        let other = Task { try await store.transaction(tenant: "other") { store in try store.reserveSequence() } }
        try await waitUntil("the other tenant waits for a place") { await store.waitingForFileCount == 1 }
        #expect(await store.openFileCount == 1)
        gate.open()
        #expect(try await held.value == 1, "the held read finished on its open file")
        #expect(try await other.value == 1)
        await store.close()
    }

    @Test func anotherTenantsPushIsAppliedWhileATenantsTransactionIsHeld() async throws {
        let workspace = try SyncTemporaryDirectory()
        let store = try await SQLiteTenantFilesStore.open(directory: workspace.file("store"))
        let server = SyncStoreContractTests.server(store)
        let gate = TenantIsolationTests.Gate()
        let busy = Task { try await store.transaction(tenant: "busy") { store in
            _ = try store.reserveSequence()
            gate.hold()
        } }
        try await waitUntil("the busy tenant's transaction holds its writer") { gate.entered }
        // Opens the gate only if the calm push is stuck behind it: the push then ends after the gate
        // opened, and the expectation below fails rather than the test hanging.
        let opened = Lock(false)
        let hang = Task {
            try? await Task.sleep(for: .seconds(max(syncHangDeadline(seconds: 60), 180)))
            opened.withLock { $0 = true }
            gate.open()
        }
        let pushed = try await SyncStoreContractTests.push(server, [SyncStoreContractTests.transaction(1)], tenant: "calm")
        #expect(pushed.outcome == .accepted)
        #expect(opened.withLock { $0 } == false, "the calm push was applied while the busy tenant's transaction was held")
        hang.cancel()
        gate.open()
        try await busy.value
        #expect(try await store.read(tenant: "busy") { store in try store.latestSequence() } == 1)
        await store.close()
    }
}
