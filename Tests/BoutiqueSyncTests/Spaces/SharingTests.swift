import BoutiqueSync
import BoutiqueSyncServer
import Foundation
import Testing

/// Sharing a list between users on a server with rules: who receives what, who may change it, and
/// what revocation takes away.
@Suite struct SharingTests {
    /// Ana's list with two reminders, synced.
    static func anasList(_ app: SharedReminders) async throws {
        try await app.write("ana", """
            INSERT INTO remindersList(id, title) VALUES ('L1', 'Groceries');
            INSERT INTO reminder(id, listID, title) VALUES ('r1', 'L1', 'Milk'), ('r2', 'L1', 'Eggs');
            """)
        _ = try await app.sync("ana").synchronize()
    }

    @Test(arguments: StoreKind.allCases) func aSharedListReachesTheMemberAndLeavesWhenUnshared(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            var app = try await SharedReminders(store: store)
            try await app.add("ana")
            try await app.add("bob")
            try await Self.anasList(app)
            _ = try await app.sync("bob").synchronize()
            #expect(try await app.rows("bob", "remindersList").isEmpty, "a list nobody shared stays with its owner")
            #expect(try await app.rows("bob", "reminder").isEmpty)

            let members = try await app.sync("ana").share("remindersList", key: .text("L1"), with: "bob", role: .viewer)
            #expect(members == [SyncMember(user: "ana", role: .owner), SyncMember(user: "bob", role: .viewer)])
            _ = try await app.sync("bob").synchronize()
            #expect(try await app.rows("bob", "remindersList") == [["L1", "Groceries"]])
            #expect(try await app.rows("bob", "reminder") == [["r1", "L1", "Milk"], ["r2", "L1", "Eggs"]])
            #expect(try await app.sync("bob").members(of: "remindersList", key: .text("L1")).map(\.user) == ["ana", "bob"])

            // Changes after the share reach the member as changes.
            try await app.write("ana", "INSERT INTO reminder(id, listID, title) VALUES ('r3', 'L1', 'Bread')")
            try await app.syncAll(["ana", "bob"])
            #expect(try await app.rows("bob", "reminder").count == 3)

            try await app.sync("ana").unshare("remindersList", key: .text("L1"), with: "bob")
            _ = try await app.sync("bob").synchronize()
            #expect(try await app.rows("bob", "remindersList").isEmpty, "revocation takes the list off the device")
            #expect(try await app.rows("bob", "reminder").isEmpty)
            #expect(try await app.states("bob", "reminder").isEmpty, "and sync forgets its rows")
            // Nothing of it was pushed back: Ana still has everything.
            try await app.syncAll(["ana", "bob"])
            #expect(try await app.rows("ana", "reminder").count == 3)
            await app.close()
        }
    }

    /// The server knows users only from the tokens it verified: sharing with one whose devices never
    /// reached it succeeds, and the answer says they have not connected, until one of their devices
    /// syncs (or they ask the server themselves).
    @Test(arguments: StoreKind.allCases) func sharingWithAUserWhoNeverConnectedSucceedsAndSaysSo(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            var app = try await SharedReminders(store: store)
            try await app.add("ana")
            try await Self.anasList(app)
            let shared = try await app.sync("ana").share("remindersList", key: .text("L1"), with: "dan", role: .editor)
            #expect(shared == [SyncMember(user: "ana", role: .owner), SyncMember(user: "dan", role: .editor)])
            #expect(shared.map(\.hasConnected) == [true, false], "dan: no token of his reached the server")
            #expect(shared.map(\.description) == ["ana owner", "dan editor (not connected yet)"])
            #expect(try await app.server.members(table: "remindersList", key: .text("L1"), tenant: "default").map(\.hasConnected) == [true, false])

            // Dan signs in on a device: its first sync brings the list, and he shows as connected.
            try await app.add("dan")
            _ = try await app.sync("dan").synchronize()
            #expect(try await app.rows("dan", "remindersList") == [["L1", "Groceries"]])
            let after = try await app.sync("ana").members(of: "remindersList", key: .text("L1"))
            #expect(after.map(\.hasConnected) == [true, true])
            await app.close()
        }
    }

    @Test(arguments: StoreKind.allCases) func aViewersEditIsRefusedAndPutBackAnEditorsIsAccepted(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            var app = try await SharedReminders(store: store)
            try await app.add("ana")
            try await app.add("bob")
            try await app.add("cleo")
            try await Self.anasList(app)
            try await app.sync("ana").share("remindersList", key: .text("L1"), with: "bob", role: .viewer)
            try await app.sync("ana").share("remindersList", key: .text("L1"), with: "cleo", role: .editor)
            try await app.syncAll(["bob", "cleo"])
            let refusals = app.sync("bob").refusals

            try await app.write("bob", "UPDATE reminder SET title = 'Oat milk' WHERE id = 'r1'")
            let report = try await app.sync("bob").synchronize()
            #expect(report.pushed == 0)
            #expect(try await app.rows("bob", "reminder") == [["r1", "L1", "Milk"], ["r2", "L1", "Eggs"]], "the viewer's edit is put back")
            let refusal = try #require(await RefusalTests.first(of: refusals))
            #expect(refusal.reason == .forbidden && refusal.table == "reminder" && refusal.key == .text("r1"))
            #expect(refusal.message.contains("viewer"))

            try await app.write("cleo", "UPDATE reminder SET title = 'Whole milk' WHERE id = 'r1'")
            try await app.syncAll(["cleo", "ana", "bob"])
            for user in ["ana", "bob", "cleo"] {
                #expect(try await app.rows(user, "reminder").first == ["r1", "L1", "Whole milk"], "\(user) sees the editor's edit")
            }
            // The viewer's refused transaction reached nobody, and the viewer's queue is not stuck.
            #expect(await app.sync("bob").status.pendingCount == 0)
            await app.close()
        }
    }

    @Test(arguments: StoreKind.allCases) func onlyTheOwnerChangesMembersAndNobodyRaisesTheirOwnRole(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            var app = try await SharedReminders(store: store)
            try await app.add("ana")
            try await app.add("bob")
            try await app.add("eve")
            try await Self.anasList(app)
            try await app.sync("ana").share("remindersList", key: .text("L1"), with: "bob", role: .editor)

            await #expect(throws: SyncRefusal.self, "an editor does not share") {
                try await app.sync("bob").share("remindersList", key: .text("L1"), with: "eve", role: .viewer)
            }
            await #expect(throws: SyncRefusal.self, "nobody is made owner") {
                try await app.sync("ana").share("remindersList", key: .text("L1"), with: "bob", role: .owner)
            }
            await #expect(throws: SyncRefusal.self, "a non-member learns nothing") {
                try await app.sync("eve").members(of: "remindersList", key: .text("L1"))
            }
            await #expect(throws: SyncRefusal.self, "a non-member cannot unshare the owner's members") {
                try await app.sync("eve").unshare("remindersList", key: .text("L1"), with: "bob")
            }
            await #expect(throws: SyncRefusal.self, "the owner stays") {
                try await app.sync("bob").unshare("remindersList", key: .text("L1"), with: "ana")
            }
            await #expect(throws: SyncRefusal.self, "a table that is not a root is not shared") {
                try await app.sync("ana").share("reminder", key: .text("r1"), with: "bob", role: .viewer)
            }
            #expect(try await app.sync("ana").members(of: "remindersList", key: .text("L1"))
                == [SyncMember(user: "ana", role: .owner), SyncMember(user: "bob", role: .editor)], "nothing changed")
            // Sharing again changes the role.
            try await app.sync("ana").share("remindersList", key: .text("L1"), with: "bob", role: .viewer)
            #expect(try await app.sync("ana").members(of: "remindersList", key: .text("L1")).last == SyncMember(user: "bob", role: .viewer))
            await app.close()
        }
    }

    @Test(arguments: StoreKind.allCases) func aReminderMovedToAnotherListLeavesTheMembersOfTheFirstWithItsLinks(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            var app = try await SharedReminders(store: store)
            try await app.add("ana")
            try await app.add("bob")
            try await Self.anasList(app)
            try await app.write("ana", """
                INSERT INTO remindersList(id, title) VALUES ('L2', 'Private');
                INSERT INTO tag(id, name) VALUES ('t1', 'urgent');
                INSERT INTO reminderTag(id, reminderID, tagID) VALUES ('rt1', 'r1', 't1');
                """)
            try await app.sync("ana").share("remindersList", key: .text("L1"), with: "bob", role: .editor)
            try await app.syncAll(["ana", "bob"])
            #expect(try await app.rows("bob", "reminder").map(\.[0]) == ["r1", "r2"])
            #expect(try await app.rows("bob", "tag").isEmpty, "tags are private to their writer")
            #expect(try await app.rows("bob", "reminderTag").isEmpty, "a link to a tag Bob cannot see waits")
            #expect(try await app.states("bob", "reminderTag") == ["rt1"], "kept, not dropped")

            try await app.write("ana", "UPDATE reminder SET listID = 'L2' WHERE id = 'r1'")
            try await app.syncAll(["ana", "bob"])
            #expect(try await app.rows("bob", "reminder").map(\.[0]) == ["r2"], "the reminder moved out of Bob's spaces")
            #expect(try await app.states("bob", "reminderTag").isEmpty, "its link went with it")
            #expect(try await app.rows("ana", "reminderTag").count == 1, "and nothing was deleted for Ana")

            try await app.write("ana", "UPDATE reminder SET listID = 'L1', title = 'Milk!' WHERE id = 'r1'")
            try await app.syncAll(["ana", "bob"])
            #expect(try await app.rows("bob", "reminder").first == ["r1", "L1", "Milk!"], "moved back in, whole")
            #expect(try await app.states("bob", "reminderTag") == ["rt1"])
            await app.close()
        }
    }

    @Test(arguments: StoreKind.allCases) func anEditorCannotMoveARowIntoAListTheyCannotWrite(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            var app = try await SharedReminders(store: store)
            try await app.add("ana")
            try await app.add("bob")
            try await Self.anasList(app)
            try await app.write("ana", "INSERT INTO remindersList(id, title) VALUES ('L2', 'Viewed')")
            _ = try await app.sync("ana").synchronize()
            try await app.sync("ana").share("remindersList", key: .text("L1"), with: "bob", role: .editor)
            try await app.sync("ana").share("remindersList", key: .text("L2"), with: "bob", role: .viewer)
            try await app.syncAll(["bob"])
            #expect(try await app.rows("bob", "remindersList").count == 2)

            try await app.write("bob", "UPDATE reminder SET listID = 'L2' WHERE id = 'r1'")
            _ = try await app.sync("bob").synchronize()
            #expect(try await app.rows("bob", "reminder").first == ["r1", "L1", "Milk"], "the move is refused and put back")
            try await app.syncAll(["ana"])
            #expect(try await app.rows("ana", "reminder").first == ["r1", "L1", "Milk"])
            await app.close()
        }
    }

    @Test(arguments: StoreKind.allCases) func aNewListIsItsCreatorsAndAListCreatedWithItsRemindersInOneTransactionIsAccepted(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            var app = try await SharedReminders(store: store)
            try await app.add("bob")
            try await app.add("ana")
            try await app.write("bob", """
                INSERT INTO remindersList(id, title) VALUES ('B1', 'Bob''s');
                INSERT INTO reminder(id, listID, title) VALUES ('b1', 'B1', 'Call mum');
                """)
            let report = try await app.sync("bob").synchronize()
            #expect(report.pushed == 2)
            #expect(try await app.sync("bob").members(of: "remindersList", key: .text("B1")) == [SyncMember(user: "bob", role: .owner)])
            _ = try await app.sync("ana").synchronize()
            #expect(try await app.rows("ana", "reminder").isEmpty)
            await app.close()
        }
    }

    @Test(arguments: StoreKind.allCases) func aRootRowIsDeletedByItsOwnerOnly(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            var app = try await SharedReminders(store: store)
            try await app.add("ana")
            try await app.add("bob")
            try await Self.anasList(app)
            try await app.sync("ana").share("remindersList", key: .text("L1"), with: "bob", role: .editor)
            _ = try await app.sync("bob").synchronize()
            try await app.write("bob", "DELETE FROM remindersList WHERE id = 'L1'")
            _ = try await app.sync("bob").synchronize()
            #expect(try await app.rows("bob", "remindersList") == [["L1", "Groceries"]], "an editor's delete of the list is put back")
            #expect(try await app.rows("bob", "reminder").count == 2, "with its reminders")
            await app.close()
        }
    }

    /// Tags shared as spaces of their own: a link of a shared reminder to a tag Bob cannot see waits out
    /// of its table, and appears once the tag is shared with him too.
    @Test(arguments: StoreKind.allCases) func aLinkWaitingForItsTagAppearsWhenTheTagIsShared(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let rules = try SyncRules(roots: ["remindersList", "tag"], follows: ["reminder": "listID", "reminderTag": "reminderID"])
            var app = try await SharedReminders(store: store, rules: rules)
            try await app.add("ana")
            try await app.add("bob")
            try await Self.anasList(app)
            try await app.write("ana", """
                INSERT INTO tag(id, name) VALUES ('t1', 'urgent');
                INSERT INTO reminderTag(id, reminderID, tagID) VALUES ('rt1', 'r1', 't1');
                """)
            _ = try await app.sync("ana").synchronize()
            try await app.sync("ana").share("remindersList", key: .text("L1"), with: "bob", role: .editor)
            _ = try await app.sync("bob").synchronize()
            #expect(try await app.rows("bob", "reminderTag").isEmpty, "the tag is not Bob's to see")
            #expect(try await app.states("bob", "reminderTag") == ["rt1"])

            try await app.sync("ana").share("tag", key: .text("t1"), with: "bob", role: .viewer)
            _ = try await app.sync("bob").synchronize()
            #expect(try await app.rows("bob", "tag") == [["t1", "urgent"]])
            #expect(try await app.rows("bob", "reminderTag") == [["rt1", "r1", "t1"]], "the waiting link appears with its tag")

            try await app.sync("ana").unshare("tag", key: .text("t1"), with: "bob")
            _ = try await app.sync("bob").synchronize()
            #expect(try await app.rows("bob", "tag").isEmpty)
            #expect(try await app.rows("bob", "reminderTag").isEmpty, "and waits again when the tag leaves")
            #expect(try await app.states("bob", "reminderTag") == ["rt1"])
            try await app.syncAll(["bob", "ana"])
            #expect(try await app.rows("ana", "reminderTag").count == 1, "nothing of it was pushed")
            await app.close()
        }
    }

    /// A refusal whose answer was lost is refused again when the push is retried, as the server decided
    /// then: even after the writer became an editor in between, the refused transaction stays refused.
    @Test(arguments: StoreKind.allCases) func aRefusalWhoseAnswerWasLostIsRefusedAgain(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            var app = try await SharedReminders(store: store)
            let flaky = FlakyTransport(.inProcess(app.server, user: "bob"))
            try await app.add("ana")
            try await app.add("bob", through: flaky)
            try await Self.anasList(app)
            try await app.sync("ana").share("remindersList", key: .text("L1"), with: "bob", role: .viewer)
            _ = try await app.sync("bob").synchronize()

            try await app.write("bob", "UPDATE reminder SET title = 'Oat milk' WHERE id = 'r1'")
            flaky.lostAnswers.store(1, ordering: .relaxed)
            await #expect(throws: BoutiqueError.self) { try await app.sync("bob").synchronize() }
            try await app.sync("ana").share("remindersList", key: .text("L1"), with: "bob", role: .editor)
            _ = try await app.sync("bob").synchronize()
            #expect(try await app.rows("bob", "reminder").first == ["r1", "L1", "Milk"], "refused again and put back")
            #expect(await app.sync("bob").status.lastRefusal?.reason == .forbidden)
            try await app.syncAll(["ana"])
            #expect(try await app.rows("ana", "reminder").first == ["r1", "L1", "Milk"])

            // Later edits of the editor go through.
            try await app.write("bob", "UPDATE reminder SET title = 'Soy milk' WHERE id = 'r1'")
            try await app.syncAll(["bob", "ana"])
            #expect(try await app.rows("ana", "reminder").first == ["r1", "L1", "Soy milk"])
            await app.close()
        }
    }

    /// A device offline puts a reminder in a list another user created meanwhile under the same key; a
    /// second device of the same user put a reminder of that key in a list of their own. The refused
    /// insert is put back as the server has it, in a list the first device has not pulled yet: it
    /// waits for the list, arrives with it, and nothing of it is deleted anywhere.
    @Test(arguments: StoreKind.allCases) func aPutBackRowWhoseListIsNotPulledYetWaitsForIt(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            var app = try await SharedReminders(store: store)
            try await app.add("ana")
            try await app.add("bob")
            let flaky = FlakyTransport(.inProcess(app.server, user: "bob"))
            try await app.add("bobsPhone", through: flaky)
            flaky.offline.store(true, ordering: .relaxed)
            try await app.write("bobsPhone", """
                INSERT INTO remindersList(id, title) VALUES ('X', 'Mine?');
                INSERT INTO reminder(id, listID, title) VALUES ('r', 'X', 'phone');
                """)
            try await app.write("ana", "INSERT INTO remindersList(id, title) VALUES ('X', 'Ana''s')")
            _ = try await app.sync("ana").synchronize()
            try await app.write("bob", """
                INSERT INTO remindersList(id, title) VALUES ('Y', 'Bob''s');
                INSERT INTO reminder(id, listID, title) VALUES ('r', 'Y', 'laptop');
                """)
            _ = try await app.sync("bob").synchronize()

            flaky.offline.store(false, ordering: .relaxed)
            _ = try await app.sync("bobsPhone").synchronize()
            _ = try await app.sync("bobsPhone").synchronize()
            #expect(try await app.rows("bobsPhone", "remindersList") == [["Y", "Bob's"]], "Ana's list is not Bob's to see")
            #expect(try await app.rows("bobsPhone", "reminder") == [["r", "Y", "laptop"]])
            _ = try await app.sync("bob").synchronize()
            #expect(try await app.rows("bob", "reminder") == [["r", "Y", "laptop"]], "and nothing was deleted for the laptop")
            await app.close()
        }
    }

    /// A push whose transactions insert a reminder then move it to another list: the second starts
    /// from where the first placed it, and the answer names both places, the latest last.
    @Test(arguments: StoreKind.allCases) func aRowMovedByALaterTransactionOfThePushEndsInItsLastList(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            var app = try await SharedReminders(store: store)
            try await app.add("ana")
            try await app.add("bob")
            try await Self.anasList(app)
            try await app.write("ana", "INSERT INTO remindersList(id, title) VALUES ('L2', 'Work')")
            _ = try await app.sync("ana").synchronize()
            try await app.sync("ana").share("remindersList", key: .text("L1"), with: "bob", role: .editor)
            _ = try await app.sync("bob").synchronize()
            let time = Date().timeIntervalSince1970 * 1000
            func stamp(_ tick: Double) -> SyncStamp { SyncStamp(time: HybridTimestamp(milliseconds: UInt64(time + tick)), replica: "ana-raw") }
            let insert = SyncChange(
                table: "reminder", key: .text("r9"), kind: .insert,
                columns: [SyncColumnValue(name: "id", value: .text("r9")), SyncColumnValue(name: "listid", value: .text("L1")),
                          SyncColumnValue(name: "title", value: .text("Draft"))],
                stamp: stamp(1))
            let move = SyncChange(
                table: "reminder", key: .text("r9"), kind: .update, columns: [SyncColumnValue(name: "listid", value: .text("L2"))],
                stamp: stamp(2))
            let response = try await app.server.push(
                PushRequest(
                    replica: "ana-raw", baseTransactionID: 0, baseDigest: nil, schemaVersion: 0,
                    transactions: [SyncTransaction(id: 1, stamp: stamp(1), changes: [insert]), SyncTransaction(id: 2, stamp: stamp(2), changes: [move])]),
                tenant: "default", user: "ana")
            #expect(response.outcome == .accepted && response.refusals == nil)
            let first = SyncSpace.shared(table: "reminderslist", key: .text("L1"))
            let second = SyncSpace.shared(table: "reminderslist", key: .text("L2"))
            #expect(response.spaces?.filter { $0.key == .text("r9") }.map(\.space) == [first, second])
            for (space, holds) in [(first, false), (second, true)] {
                let rows = try await app.server.snapshot(
                    SnapshotRequest(replica: "ana-2", after: nil, limit: 1000, space: space), tenant: "default", user: "ana").rows
                #expect(rows.contains { $0.key == .text("r9") } == holds, "\(space)")
            }
            let row = try #require(
                try await app.server.snapshot(SnapshotRequest(replica: "x", after: nil, limit: 1000), tenant: "default").rows
                    .first { $0.key == .text("r9") })
            #expect(row.state.cells["title"]?.value == .text("Draft") && row.state.cells["listid"]?.value == .text("L2"))
            _ = try await app.sync("bob").synchronize()
            #expect(try await app.rows("bob", "reminder").map { $0[0] } == ["r1", "r2"], "a member of the first list only sees it leave")
            await app.close()
        }
    }
}
