// The HTTP front end is part of the package where GNU libmicrohttpd is installed; so are its tests.
#if BOUTIQUE_SYNC_HTTP
import BoutiqueSync
import BoutiqueSyncHTTP
import BoutiqueSyncServer
import Foundation
import Testing

/// Share, unshare and members over real HTTP on 127.0.0.1, in one process.
@Suite struct SharingHTTPTests {
    /// A refused membership call is thrown to its caller, where a 403 arrives as a ``SyncRefusal``; it
    /// is not posted as a change sync put back. A push refusal after it is the first one reported.
    @Test func aRefusedMembershipCallIsThrownToItsCallerOnly() async throws {
        let server = try await HTTPTestServer(rules: try SpacesSchema.rules())
        var devices: [String: (database: DatabaseActor, sync: BoutiqueSync)] = [:]
        for user in ["ana", "bob"] {
            let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SpacesSchema.plan)
            devices[user] = (database, try await BoutiqueSync(database: database, tables: SpacesSchema.tables, server: try server.transport(user: user)))
        }
        let ana = devices["ana"]!, bob = devices["bob"]!
        try await ana.database.write { conn in
            try conn.execute("""
                INSERT INTO remindersList(id, title) VALUES ('L1', 'Groceries');
                INSERT INTO reminder(id, listID, title) VALUES ('r1', 'L1', 'Milk');
                """)
        }
        _ = try await ana.sync.synchronize()
        let refusals = bob.sync.refusals

        await #expect(throws: SyncRefusal.self, "a non-member's share") {
            try await bob.sync.share("remindersList", key: .text("L1"), with: "bob", role: .editor)
        }
        await #expect(throws: SyncRefusal.self, "a list nobody has") { try await bob.sync.members(of: "remindersList", key: .text("L9")) }
        #expect(await bob.sync.status.lastRefusal == nil, "the status does not report what the caller was told")

        try await ana.sync.share("remindersList", key: .text("L1"), with: "bob", role: .viewer)
        await #expect(throws: SyncRefusal.self, "a viewer's unshare") {
            try await bob.sync.unshare("remindersList", key: .text("L1"), with: "ana")
        }
        _ = try await bob.sync.synchronize()
        try await bob.database.write { conn in try conn.execute("UPDATE reminder SET title = 'Oat milk' WHERE id = 'r1'") }
        _ = try await bob.sync.synchronize()
        let first = try #require(await RefusalTests.first(of: refusals))
        #expect(first.table == "reminder" && first.key == .text("r1") && first.message.contains("viewer"), "the put-back edit comes first: \(first)")
        #expect(await bob.sync.status.lastRefusal == first)
        await ana.database.close()
        await bob.database.close()
        await server.stop()
    }
}
#endif
