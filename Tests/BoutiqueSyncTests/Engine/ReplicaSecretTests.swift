import BoutiqueSync
@testable import BoutiqueSyncServer
import Foundation
import Testing

/// A device binds its replica id to a secret of its own, and a restored file, which takes a new id,
/// takes a new secret with it.
@MainActor @Suite struct ReplicaSecretTests {
    /// The file's secrets, by replica id.
    static func secrets(_ database: DatabaseActor) async throws -> [String: String] {
        try await database.read { conn in
            var found: [String: String] = [:]
            for row in try conn.fetchAll("SELECT replica, secret FROM boutique_sync_replica_secret") {
                guard case .text(let replica) = row.values[0], case .text(let secret) = row.values[1] else { continue }
                found[replica] = secret
            }
            return found
        }
    }

    @Test func aRestoredFileTakesANewReplicaIdWithANewSecret() async throws {
        let directory = try SyncTemporaryDirectory()
        let server = try await makeServer()
        let url = directory.file("device.db")
        var database = try await DatabaseActor.open(url: url, migrations: SyncTestSchema.plan)
        var sync = try await BoutiqueSync(database: database, tables: ["note"], server: .inProcess(server))
        try await database.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES ('n1', 'before the backup')") }
        _ = try await sync.synchronize()
        let original = await sync.replicaID
        let first = try await Self.secrets(database)
        #expect(first.keys.sorted() == [original] && first[original]?.utf8.count == 64, "32 random bytes, in hex")
        let bound = try await server.store.transaction(tenant: "default") { store in try store.replica(original)?.secretHash }
        #expect(bound == (try ReplicaSecret.hash(first[original] ?? "")), "the server bound the id to the device's secret")

        let backup = directory.file("backup.db")
        try await database.writeWithoutTransaction { conn in try conn.execute("VACUUM INTO ?", [.text(backup.path)]) }
        try await database.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES ('n2', 'after the backup')") }
        _ = try await sync.synchronize()
        await database.close()
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
        try FileManager.default.copyItem(at: backup, to: url)
        database = try await DatabaseActor.open(url: url, migrations: SyncTestSchema.plan)
        sync = try await BoutiqueSync(database: database, tables: ["note"], server: .inProcess(server))
        try await database.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES ('n3', 'after the restore')") }
        _ = try await sync.synchronize()
        let fresh = await sync.replicaID
        #expect(fresh != original)
        let after = try await Self.secrets(database)
        #expect(after[original] == first[original] && after[fresh] != nil && after[fresh] != first[original], "a new secret for the new id")
        let rebound = try await server.store.transaction(tenant: "default") { store in try store.replica(fresh)?.secretHash }
        #expect(rebound == (try ReplicaSecret.hash(after[fresh] ?? "")))
        #expect(try await database.rows("note").count == 3, "the restored file lost nothing")
        await database.close()
    }

    @Test func aFileWhoseSecretIsNotTheBoundOneTakesANewReplicaIdAndLosesNothing() async throws {
        let server = try await makeServer()
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        var sync = try await BoutiqueSync(database: database, tables: ["note"], server: .inProcess(server))
        try await database.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES ('n1', 'bound')") }
        _ = try await sync.synchronize()
        let original = await sync.replicaID
        // As a file restored from a backup made before its secret: the same id, another secret.
        try await database.write { conn in
            try conn.execute("UPDATE boutique_sync_replica_secret SET secret = 'made again' WHERE replica = ?", [.text(original)])
            try conn.execute("INSERT INTO note(id, title) VALUES ('n2', 'after')")
        }
        sync = try await BoutiqueSync(database: database, tables: ["note"], server: .inProcess(server))
        _ = try await sync.synchronize()
        let fresh = await sync.replicaID
        #expect(fresh != original, "refused as another device's id, the file took a new one")
        let other = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        _ = try await BoutiqueSync(database: other, tables: ["note"], server: .inProcess(server)).synchronize()
        #expect(try await other.rows("note").map { $0[1] } == ["bound", "after"], "its write after the refusal reached the server")
        await database.close()
        await other.close()
    }
}
