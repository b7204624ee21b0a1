import BoutiqueSync
import BoutiqueSyncServer
import Foundation
import Testing

/// A refused share, unshare or members call is the caller's to hear, as the error it throws; sync's
/// refusal stream and status report what sync itself put back.
@Suite struct MembershipRefusalTests {
    @Test func aMembershipCallThroughATransportWithoutAUserIsThrownAndNotPosted() async throws {
        let app = try await SharedReminders()
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SpacesSchema.plan)
        // Trusted code: its pushes are unchecked, and it changes members on the server itself.
        let sync = try await BoutiqueSync(database: database, tables: SpacesSchema.tables, server: .inProcess(app.server))
        let error = await #expect(throws: SyncRefusal.self) {
            try await sync.share("remindersList", key: .text("L1"), with: "bob", role: .viewer)
        }
        #expect(error?.reason == .forbidden)
        #expect(await sync.status.lastRefusal == nil)
        await database.close()
    }
}
