import BoutiqueSync
import BoutiqueSyncServer
import Foundation
import Testing

/// The reminders list of ``SpacesSchema`` with a UUID key, as an app declares it.
@Table("remindersList")
struct UUIDRemindersList: Sendable, Equatable {
    @Column(primaryKey: true) let id: UUID
    var title: String
}

/// A root row's key names its space however a UUID is spelled: BoutiqueDB stores a UUID as lowercase
/// text, while `uuidString` (and people copying it) write it in upper case.
@Suite struct SharingKeyTests {
    @Test(arguments: StoreKind.allCases) func aUUIDKeyInUpperCaseOrAsBytesNamesTheSpaceOfItsLowercaseRow(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            var app = try await SharedReminders(store: store)
            try await app.add("ana")
            try await app.add("bob")
            try await app.add("eve")
            let id = UUID()
            try await app.database("ana").write { conn in
                try UUIDRemindersList.insert { UUIDRemindersList(id: id, title: "Groceries") }.execute(conn.connection)
            }
            _ = try await app.sync("ana").synchronize()
            let stored = try await app.rows("ana", "remindersList")
            #expect(stored == [[id.uuidString.lowercased(), "Groceries"]], "the row's key is lowercase text")
            let upper = DatabaseValue.text(id.uuidString)

            let shared = try await app.sync("ana").share("remindersList", key: upper, with: "bob", role: .viewer)
            #expect(shared == [SyncMember(user: "ana", role: .owner), SyncMember(user: "bob", role: .viewer)])
            #expect(try await app.sync("ana").share(UUIDRemindersList.self, key: id, with: "bob", role: .editor).last
                == SyncMember(user: "bob", role: .editor), "the typed call with the UUID itself")
            #expect(try await app.sync("bob").members(of: "remindersList", key: upper).map(\.user) == ["ana", "bob"])
            let bytes = withUnsafeBytes(of: id.uuid) { DatabaseValue.blob(Array($0)) }
            let asBytes = try await app.server.membership(
                MembershipRequest(table: "remindersList", key: bytes), action: .members, tenant: "default", user: "bob")
            #expect(asBytes.reason == nil && asBytes.members.count == 2, "its 16 bytes name it too: \(asBytes.reason ?? "")")
            _ = try await app.sync("bob").synchronize()
            #expect(try await app.rows("bob", "remindersList") == stored, "one space, the stored row's")

            // Only the asking user's own spaces are searched: a non-member is refused in any spelling.
            for key in [upper, .text(id.uuidString.lowercased()), bytes] {
                await #expect(throws: SyncRefusal.self) { try await app.sync("eve").members(of: "remindersList", key: key) }
            }
            #expect(try await app.sync("ana").unshare("remindersList", key: upper, with: "bob") == [SyncMember(user: "ana", role: .owner)])
            await app.close()
        }
    }

    @Test(arguments: StoreKind.allCases) func aTextKeyThatIsNoUUIDMatchesExactly(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            var app = try await SharedReminders(store: store)
            try await app.add("ana")
            try await SharingTests.anasList(app)
            await #expect(throws: SyncRefusal.self, "text keys compare as stored, byte by byte") {
                try await app.sync("ana").share("remindersList", key: .text("l1"), with: "bob", role: .viewer)
            }
            #expect(try await app.sync("ana").members(of: "remindersList", key: .text("L1")) == [SyncMember(user: "ana", role: .owner)])
            await app.close()
        }
    }
}
