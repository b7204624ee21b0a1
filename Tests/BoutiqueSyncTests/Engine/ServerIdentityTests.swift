import BoutiqueSync
import BoutiqueSyncServer
import Foundation
import Testing

/// A device knows its server by what the server is (its store's identity and the tenant), not by how
/// its address is written: another spelling of the address never costs a download of everything, and
/// another store behind a known address is a new server, said so and bootstrapped from.
@Suite struct ServerIdentityTests {
    /// A server holding `count` notes written by another device.
    static func serverWithNotes(_ count: Int, prefix: String = "w") async throws -> SyncServer {
        let server = try await makeServer()
        let writer = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let sync = try await BoutiqueSync(database: writer, tables: ["note"], server: .inProcess(server))
        try await writer.write { conn in
            for index in 0..<count { try conn.execute("INSERT INTO note(id, title) VALUES (?, 'from the writer')", [.text("\(prefix)\(index)")]) }
        }
        _ = try await sync.synchronize()
        await writer.close()
        return server
    }

    static func sync(_ database: DatabaseActor, _ server: SyncServer, at address: String) async throws -> BoutiqueSync {
        try await BoutiqueSync(
            database: database, tables: ["note"], server: AddressedTransport(.inProcess(server), address: address))
    }

    @Test func theSameServerThroughAnotherAddressIsNotDownloadedAgain() async throws {
        let server = try await Self.serverWithNotes(40)
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        try await database.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES ('mine', 'before')") }
        let first = try await Self.sync(database, server, at: "http://127.0.0.1:8080")
        let replica = await first.replicaID
        let report = try await first.synchronize()
        #expect(report.pushed == 1 && report.newServer == nil, "\(report)")
        #expect(try await database.rows("note").count == 41)

        try await database.write { conn in try conn.execute("UPDATE note SET title = 'after' WHERE id = 'mine'") }
        for address in ["http://localhost:8080/", "http://127.0.0.1:8080/", "https://sync.example.com"] {
            let other = try await Self.sync(database, server, at: address)
            let again = try await other.synchronize()
            #expect(again.applied == 0, "\(address): nothing downloaded again")
            #expect(again.newServer == nil, "\(address)")
            #expect(await other.replicaID == replica, "\(address): the same replica")
            #expect(await other.status.pendingCount == 0)
        }
        // The edit made between the addresses went once, under the first of them to push.
        let log = try await server.pull(PullRequest(replica: "reader", cursor: 0, limit: 100), tenant: "default").changes
        #expect(log.filter { $0.change.key == .text("mine") }.count == 2, "the insert and the edit, each once")
        await database.close()
    }

    @Test func anotherStoreBehindAKnownAddressIsANewServerThatIsSaidAndBootstrappedFrom() async throws {
        let old = try await Self.serverWithNotes(3)
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        _ = try await Self.sync(database, old, at: "http://sync.example.com").synchronize()
        #expect(try await database.rows("note").count == 3)

        // The operator replaced the server's store: the address is the same, the server is not.
        let replacement = try await Self.serverWithNotes(5, prefix: "r")
        let sync = try await Self.sync(database, replacement, at: "http://sync.example.com")
        let report = try await sync.synchronize()
        let named = try #require(report.newServer, "the device is told the server is another one")
        #expect(named.tenant == "default")
        #expect(report.applied == 5, "its rows were downloaded: a bootstrap")
        #expect(try await database.rows("note").count == 8, "merged with what the file held")
        // Once known, the new server is the one at this address: no news the next time.
        #expect(try await sync.synchronize().newServer == nil)
        await database.close()
    }

    @Test func progressKeptByAddressMovesToTheServersNameWhenAReplyGivesIt() async throws {
        // A server from before identities, then the same store served by one that has them.
        let store = try await SQLiteSyncStore.open(url: BoutiqueDB.inMemoryURL())
        let nameless = SyncServer(store: NamelessStore(base: store))
        let writer = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let writerSync = try await BoutiqueSync(database: writer, tables: ["note"], server: .inProcess(nameless))
        try await writer.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES ('w', 'x')") }
        _ = try await writerSync.synchronize()

        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        #expect(try await Self.sync(database, nameless, at: "http://old").synchronize().applied == 1)
        let named = SyncServer(store: store)
        // First through the address it used, then through another: neither downloads again.
        #expect(try await Self.sync(database, named, at: "http://old").synchronize().applied == 0)
        #expect(try await Self.sync(database, named, at: "http://new").synchronize().applied == 0)
        await writer.close()
        await database.close()
    }
}
