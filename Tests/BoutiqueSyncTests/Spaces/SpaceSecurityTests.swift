import BoutiqueSync
import BoutiqueSyncServer
import Foundation
import Testing

/// No request returns a row or a member of a space the asking user is not in, however it is made.
@Suite struct SpaceSecurityTests {
    @Test(arguments: StoreKind.allCases) func pullsAndSnapshotsOfANonMemberCarryNothingOfOthersSpaces(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            var app = try await SharedReminders(store: store)
            try await app.add("ana")
            try await SharingTests.anasList(app)
            try await app.write("ana", "INSERT INTO tag(id, name) VALUES ('t1', 'mine')")
            _ = try await app.sync("ana").synchronize()
            let server = app.server
            let latest = try await server.pull(PullRequest(replica: "eve-1", cursor: 0, limit: 1000), tenant: "default", user: "ana").nextCursor
            #expect(latest > 0)
            // Every cursor, every page size.
            for cursor in 0...latest {
                for limit in [1, 2, 1000] {
                    let page = try await server.pull(PullRequest(replica: "eve-1", cursor: cursor, limit: limit), tenant: "default", user: "eve")
                    #expect(page.changes.isEmpty && page.events == nil, "cursor \(cursor) limit \(limit)")
                }
            }
            let snapshot = try await server.snapshot(SnapshotRequest(replica: "eve-1", after: nil, limit: 1000), tenant: "default", user: "eve")
            #expect(snapshot.rows.isEmpty && snapshot.totalRows == 0)
            let crafted = try await server.snapshot(
                SnapshotRequest(replica: "eve-1", after: nil, limit: 1000, space: .shared(table: "reminderslist", key: .text("L1"))),
                tenant: "default", user: "eve")
            #expect(crafted.rows.isEmpty, "asking for a space by name gives nothing to a non-member")
            let privateSpace = try await server.snapshot(
                SnapshotRequest(replica: "eve-1", after: SnapshotPosition(table: "", key: .text(""), space: .private(user: "ana")), limit: 1000),
                tenant: "default", user: "eve")
            #expect(privateSpace.rows.isEmpty, "a position in another user's space gives nothing")
            let members = try await server.membership(
                MembershipRequest(table: "remindersList", key: .text("L1")), action: .members, tenant: "default", user: "eve")
            #expect(members.members.isEmpty && members.refusal == .forbidden)
            await app.close()
        }
    }

    @Test(arguments: StoreKind.allCases) func aViewersPushChangesNothingOnTheServer(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            var app = try await SharedReminders(store: store)
            try await app.add("ana")
            try await app.add("bob")
            try await SharingTests.anasList(app)
            try await app.sync("ana").share("remindersList", key: .text("L1"), with: "bob", role: .viewer)
            _ = try await app.sync("bob").synchronize()
            let before = try await app.server.snapshot(SnapshotRequest(replica: "x", after: nil, limit: 1000), tenant: "default")
            try await app.write("bob", """
                UPDATE remindersList SET title = 'Mine now' WHERE id = 'L1';
                INSERT INTO reminder(id, listID, title) VALUES ('r9', 'L1', 'Sneaky');
                """)
            _ = try await app.sync("bob").synchronize()
            let after = try await app.server.snapshot(SnapshotRequest(replica: "x", after: nil, limit: 1000), tenant: "default")
            #expect(after.rows == before.rows)
            #expect(try await app.rows("bob", "reminder").count == 2, "the viewer's insert is undone on the device")
            await app.close()
        }
    }

    @Test(arguments: StoreKind.allCases) func membershipAtEachPointOfTheSequence(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            var app = try await SharedReminders(store: store)
            try await app.add("ana")
            try await app.add("bob")
            try await SharingTests.anasList(app)
            try await app.sync("ana").share("remindersList", key: .text("L1"), with: "bob", role: .viewer)
            try await app.write("ana", "INSERT INTO reminder(id, listID, title) VALUES ('r3', 'L1', 'While shared')")
            _ = try await app.sync("ana").synchronize()
            try await app.sync("ana").unshare("remindersList", key: .text("L1"), with: "bob")
            try await app.write("ana", "INSERT INTO reminder(id, listID, title) VALUES ('r4', 'L1', 'After')")
            _ = try await app.sync("ana").synchronize()
            // A device of Bob's that was offline all along pulls the whole history: it joins, sees the
            // change made while shared, leaves, and never sees what came after.
            var cursor: Int64 = 0
            var seen: [DatabaseValue] = []
            var events: [SpaceEvent.Kind] = []
            while true {
                let page = try await app.server.pull(PullRequest(replica: "bob-2", cursor: cursor, limit: 1), tenant: "default", user: "bob")
                seen += page.changes.map(\.change.key)
                events += (page.events ?? []).map(\.kind)
                cursor = page.nextCursor
                if !page.hasMore { break }
            }
            #expect(events == [.joined, .left])
            #expect(seen == [.text("r3")], "only the change made while Bob was a member")
            await app.close()
        }
    }
}
