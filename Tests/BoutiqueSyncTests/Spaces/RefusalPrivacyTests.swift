import BoutiqueSync
import BoutiqueSyncServer
import Foundation
import Testing

/// A refusal tells a user nothing they cannot see: a change touching a row in another user's space is
/// answered exactly as one touching a key that does not exist, and the answer names no space, owner
/// or row of anyone else's.
@Suite struct RefusalPrivacyTests {
    /// One pushed change, its own transaction, made by `replica`.
    struct RawWriter {
        let server: SyncServer
        let user: String
        let replica: String
        private let start = UInt64(Date().timeIntervalSince1970 * 1000)

        init(server: SyncServer, user: String) {
            self.server = server
            self.user = user
            replica = "\(user)-raw"
        }

        func stamp(_ tick: Int) -> SyncStamp {
            SyncStamp(time: HybridTimestamp(milliseconds: start + UInt64(tick)), replica: replica)
        }

        func insert(_ table: String, _ key: String, _ columns: [String: String], tick: Int) -> SyncChange {
            SyncChange(
                table: table, key: .text(key), kind: .insert,
                columns: [SyncColumnValue(name: "id", value: .text(key))]
                    + columns.sorted { $0.key < $1.key }.map { SyncColumnValue(name: $0.key, value: .text($0.value)) },
                stamp: stamp(tick))
        }

        func update(_ table: String, _ key: String, _ columns: [String: String], tick: Int) -> SyncChange {
            SyncChange(
                table: table, key: .text(key), kind: .update,
                columns: columns.sorted { $0.key < $1.key }.map { SyncColumnValue(name: $0.key, value: .text($0.value)) }, stamp: stamp(tick))
        }

        func delete(_ table: String, _ key: String, tick: Int) -> SyncChange {
            SyncChange(table: table, key: .text(key), kind: .delete, columns: [], stamp: stamp(tick))
        }

        /// Pushes the transactions (numbered from 1) in one push, from a replica that never pushed.
        func push(_ transactions: [[SyncChange]]) async throws -> PushResponse {
            let numbered = transactions.enumerated().map { index, changes in
                SyncTransaction(id: Int64(index + 1), stamp: changes[0].stamp, changes: changes)
            }
            return try await server.push(
                PushRequest(replica: replica, baseTransactionID: 0, baseDigest: nil, schemaVersion: 0, transactions: numbered),
                tenant: "default", user: user)
        }
    }

    /// Ana's shared list L1 (r1, r2), her unshared list L2 and her private tag t1, synced.
    static func anasRows(_ app: SharedReminders) async throws {
        try await SharingTests.anasList(app)
        try await app.write("ana", """
            INSERT INTO remindersList(id, title) VALUES ('L2', 'Ana only');
            INSERT INTO tag(id, name) VALUES ('t1', 'mine');
            """)
        _ = try await app.sync("ana").synchronize()
    }

    @Test(arguments: StoreKind.allCases) func aRowInAnotherUsersSpaceIsRefusedAsAKeyThatDoesNotExist(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            var app = try await SharedReminders(store: store)
            try await app.add("ana")
            try await Self.anasRows(app)
            let before = try await app.server.snapshot(SnapshotRequest(replica: "x", after: nil, limit: 1000), tenant: "default").rows

            let eve = RawWriter(server: app.server, user: "eve")
            // Pairs of one change to a row of Ana's and the same change to a key nobody holds.
            let pairs: [(theirs: SyncChange, nobodys: SyncChange, what: String)] = [
                (eve.update("reminder", "r1", ["title": "x"], tick: 2), eve.update("reminder", "r-none", ["title": "x"], tick: 3), "update of a reminder"),
                (eve.delete("reminder", "r1", tick: 4), eve.delete("reminder", "r-none", tick: 5), "delete of a reminder"),
                (eve.update("tag", "t1", ["name": "x"], tick: 6), eve.update("tag", "t-none", ["name": "x"], tick: 7), "update of a private tag"),
                (eve.delete("tag", "t1", tick: 8), eve.delete("tag", "t-none", tick: 9), "delete of a private tag"),
                (eve.update("reminderslist", "L2", ["title": "x"], tick: 10), eve.update("reminderslist", "L-none", ["title": "x"], tick: 11),
                 "update of a list"),
                (eve.delete("reminderslist", "L2", tick: 12), eve.delete("reminderslist", "L-none", tick: 13), "delete of a list"),
                (eve.insert("reminder", "r-into-L1", ["listid": "L1", "title": "x"], tick: 14),
                 eve.insert("reminder", "r-into-none", ["listid": "L-none", "title": "x"], tick: 15), "insert into a list"),
                (eve.update("reminder", "e-r", ["listid": "L2"], tick: 16), eve.update("reminder", "e-r", ["listid": "L-none"], tick: 17),
                 "move into a list"),
            ]
            // Eve's own list and reminder first: a new key is inserted, whatever the rules.
            let own = [
                [eve.insert("reminderslist", "E1", ["title": "Eve's"], tick: 0)], [eve.insert("reminder", "e-r", ["listid": "E1", "title": "x"], tick: 1)],
            ]
            // Taken keys: an insert under a key that exists in Ana's spaces.
            let taken = [
                [eve.insert("reminder", "r2", ["listid": "E1", "title": "x"], tick: 18)], [eve.insert("tag", "t1", ["name": "x"], tick: 19)],
                [eve.insert("reminderslist", "L1", ["title": "x"], tick: 20)],
            ]
            let response = try await eve.push(own + pairs.flatMap { [[$0.theirs], [$0.nobodys]] } + taken)
            #expect(response.outcome == .accepted)
            let refusals = response.refusals ?? []
            #expect(refusals.map(\.transactionID) == Array(3...Int64(own.count + pairs.count * 2 + taken.count)), "everything but Eve's own rows is refused")

            let message = try #require(refusals.first?.message)
            for refusal in refusals {
                #expect(refusal.reason == .forbidden)
                #expect(refusal.message == message, "transaction \(refusal.transactionID): \(refusal.message)")
                // Eve's own reminder comes back as she may see it; any other row is sent as absent.
                if refusal.key != .text("e-r") {
                    #expect(refusal.rows.isEmpty, "nothing of a row Eve cannot see is sent: transaction \(refusal.transactionID)")
                    #expect(refusal.absentRows == [SnapshotPosition(table: refusal.table, key: refusal.key)])
                }
            }
            for (index, pair) in pairs.enumerated() {
                let theirs = try #require(refusals.first { $0.transactionID == Int64(own.count + 2 * index + 1) })
                let nobodys = try #require(refusals.first { $0.transactionID == Int64(own.count + 2 * index + 2) })
                #expect(theirs.message == nobodys.message && theirs.reason == nobodys.reason, "\(pair.what)")
                #expect(theirs.rows.map(\.key) == nobodys.rows.map(\.key) && theirs.absentRows.count == nobodys.absentRows.count, "\(pair.what)")
                #expect(theirs.key == pair.theirs.key && nobodys.key == pair.nobodys.key, "each names the change Eve made")
            }
            for secret in ["L1", "L2", "t1", "ana", "reminderslist", "private", "not a member"] {
                #expect(!message.contains(secret), "the reason names nothing of Ana's: \(message)")
            }

            let after = try await app.server.snapshot(SnapshotRequest(replica: "x", after: nil, limit: 1000), tenant: "default").rows
            let eves: [DatabaseValue] = [.text("E1"), .text("e-r")]
            #expect(after.filter { !eves.contains($0.key) } == before, "no row of Ana's changed, and no key was added but Eve's own")
            #expect(after.filter { eves.contains($0.key) }.count == 2)
            await app.close()
        }
    }

    @Test(arguments: StoreKind.allCases) func aReminderMovedIntoAListTheEditorCannotSeeIsRefusedWithoutNamingIt(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            var app = try await SharedReminders(store: store)
            try await app.add("ana")
            try await app.add("carol")
            try await Self.anasRows(app)
            try await app.sync("ana").share("remindersList", key: .text("L1"), with: "carol", role: .editor)
            _ = try await app.sync("carol").synchronize()
            let refusals = app.sync("carol").refusals

            try await app.write("ana", "UPDATE reminder SET listID = 'L2' WHERE id = 'r1'")
            _ = try await app.sync("ana").synchronize()
            try await app.write("carol", "UPDATE reminder SET title = 'Oat milk' WHERE id = 'r1'")
            _ = try await app.sync("carol").synchronize()

            let refusal = try #require(await RefusalTests.first(of: refusals))
            #expect(refusal.reason == .forbidden && refusal.table == "reminder" && refusal.key == .text("r1"))
            for secret in ["L2", "l2", "reminderslist", "ana"] {
                #expect(!refusal.message.contains(secret), "Carol is not told of Ana's list: \(refusal.message)")
            }
            // The same words as for a reminder that never existed.
            let guess = try await RawWriter(server: app.server, user: "carol").push([[
                RawWriter(server: app.server, user: "carol").update("reminder", "r-none", ["title": "x"], tick: 1)
            ]])
            #expect(guess.refusals?.first?.message == refusal.message)
            #expect(await app.sync("carol").status.lastRefusal?.message == refusal.message)
            #expect(try await app.rows("carol", "reminder").map { $0[0] } == ["r2"], "the reminder Carol lost is taken off her device")
            #expect(try await app.rows("ana", "reminder").first == ["r1", "L2", "Milk"])
            await app.close()
        }
    }

    @Test(arguments: StoreKind.allCases) func aFollowerWrittenBeforeItsParentInOneTransactionIsAccepted(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            var app = try await SharedReminders(store: store)
            try await app.add("ana")
            try await Self.anasRows(app)
            let eve = RawWriter(server: app.server, user: "eve")
            // A device that defers its foreign keys may log the reminder before its list.
            let response = try await eve.push([[
                eve.insert("reminder", "e-r", ["listid": "E1", "title": "x"], tick: 1), eve.insert("reminderslist", "E1", ["title": "Eve's"], tick: 1),
            ]])
            #expect(response.outcome == .accepted && response.refusals == nil)
            await app.close()
        }
    }
}
