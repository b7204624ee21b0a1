@testable import BoutiqueSync
@testable import BoutiqueSyncServer
import Foundation
import Testing

/// A write of collaborative text that sync cannot merge (a value past what a text holds, a stored text
/// or recorded operations damaged on disk) is refused for its row and column only: it is reported, the
/// row shows the merged text, the rest of its transaction syncs, and so does every later write.
@Suite struct CollaborativeTextFailureTests {
    /// One more character than a collaborative text holds, tombstones included.
    static let tooLong = String(repeating: "a", count: (1 << 22) + 1)

    @Test func aValueTooLongToDiffIsRefusedForItsRowAndLaterWritesSync() async throws {
        let note = try await TextDevices.make(body: "short")
        // One transaction: the body no text can hold, another column of the row, another row.
        try await note.devices[0].write { conn in
            try conn.execute("UPDATE note SET body = ?, title = 'Renamed' WHERE id = 'n1'", [.text(Self.tooLong)])
            try conn.execute("INSERT INTO note(id, title, body) VALUES ('n2', 'Other', 'hello')")
        }
        try await note.settle()

        let refusals = await note.syncs[0].takeReportedRefusals()
        #expect(refusals.count == 1, "\(refusals.map(\.message))")
        let refusal = try #require(refusals.first)
        #expect(refusal.reason == .invalid)
        #expect(refusal.table == "note" && refusal.key == .text("n1"))
        #expect(refusal.values["body"] == .text(Self.tooLong), "the refused write, for the app to keep")
        #expect(refusal.message.contains("note.body"), "\(refusal.message)")
        for device in 0..<2 {
            // The row shows the merged text again; the rest of the transaction synced.
            #expect(try await note.body(device) == .text("short"))
            #expect(try await note.devices[device].rows("note") == [["n1", "Renamed", "short", "NULL"], ["n2", "Other", "hello", "NULL"]])
        }
        try await note.write(0, "UPDATE note SET body = 'short and sweet' WHERE id = 'n1'")
        try await note.write(1, "UPDATE note SET body = 'hello world' WHERE id = 'n2'")
        try await note.settle()
        for device in 0..<2 {
            #expect(try await note.body(device) == .text("short and sweet"))
            #expect(try await note.body(device, key: "n2") == .text("hello world"))
        }
        #expect(await note.syncs[0].takeReportedRefusals().isEmpty, "reported once")
        await note.close()
    }

    @Test func aDamagedStoredTextIsRefusedForItsRowAndRepairedFromTheServer() async throws {
        let note = try await TextDevices.make(body: "one two")
        // The second device's stored text of the body no longer reads.
        try await note.devices[1].write { conn in
            let states = try RowStates(sql: SQLRunner(conn))
            var state = try #require(try states.state(table: "note", key: .text("n1")))
            let cell = try #require(state.cells["body"])
            state.cells["body"] = CellRegister(value: .blob([0x00, 0x42, 0x54, 0x58, 2, 0xFF, 0xFF, 0xFF]), stamp: cell.stamp)
            try states.setState(state, table: "note", key: .text("n1"))
        }
        try await note.write(1, "UPDATE note SET body = 'one two three', title = 'Renamed' WHERE id = 'n1'")
        try await note.settle()

        let refusals = await note.syncs[1].takeReportedRefusals()
        #expect(refusals.map(\.key) == [.text("n1")], "\(refusals.map(\.message))")
        #expect(refusals.first?.values["body"] == .text("one two three"))
        for device in 0..<2 {
            // The server's text came back with a snapshot; the title went.
            #expect(try await note.devices[device].rows("note") == [["n1", "Renamed", "one two", "NULL"]])
        }
        try await note.write(1, "UPDATE note SET body = 'one two four' WHERE id = 'n1'")
        try await note.write(0, "UPDATE note SET body = 'zero one two' WHERE id = 'n1'")
        try await note.settle()
        for device in 0..<2 {
            #expect(try await note.body(device) == .text("zero one two four"))
        }
        await note.close()
    }

    @Test func aTextAwaitingItsSnapshotKeepsWhatTheTableShowsWhenItsRowIsWrittenAgain() async throws {
        let note = try await TextDevices.make(body: "one two")
        let table = try #require(await note.syncs[1].session.tables["note"])
        try await note.devices[1].write { conn in
            // The stored text was found damaged: the cell waits for the server's snapshot.
            let states = try RowStates(sql: SQLRunner(conn))
            var state = try #require(try states.state(table: "note", key: .text("n1")))
            let cell = try #require(state.cells["body"])
            state.cells["body"] = CellRegister(value: CollaborativeTextValue.awaitingSnapshot, stamp: cell.stamp)
            try states.setState(state, table: "note", key: .text("n1"))
            // Before the snapshot, the row is written again from its state, as a space event or a
            // repair writes it, and projected as a pulled edit of its columns projects it.
            let projector = RowProjector(sql: SQLRunner(conn))
            try projector.reproject(state, key: .text("n1"), table: table)
            try projector.project(
                state, key: .text("n1"), table: table,
                effect: MergeRule.Effect(wasVisible: true, isVisible: true, changedColumns: ["body", "title"]))
            try projector.write(state, key: .text("n1"), table: table)
        }
        #expect(try await note.body(1) == .text("one two"))
        await note.close()
    }

    /// Folds the first device's transactions (their operations recorded), then damages the recorded
    /// operations of n1 on disk: of every transaction, or of the first only.
    static func damageRecordedOperations(of note: TextDevices, firstOnly: Bool = false) async throws {
        let tables = await note.syncs[0].session.tables
        let unmergeable = note.syncs[0].session.unmergeableTextEdits
        try await note.devices[0].write { conn in
            try LocalFolder.fold(tables: tables, replica: "unused", unmergeable: unmergeable, on: conn.connection)
            try conn.execute(
                "UPDATE boutique_sync_text_ops SET operations = x'004254580199' WHERE key = 'n1'"
                    + (firstOnly ? " AND txn = (SELECT min(txn) FROM boutique_sync_text_ops WHERE key = 'n1')" : ""))
        }
    }

    @Test func anEditBuiltOnDamagedOperationsIsRefusedAndTheLostTextStaysLost() async throws {
        let note = try await TextDevices.make(body: "alpha")
        try await note.write(0, "UPDATE note SET body = 'alpha beta' WHERE id = 'n1'")
        try await note.write(0, "UPDATE note SET body = 'alpha beta gamma' WHERE id = 'n1'")
        try await Self.damageRecordedOperations(of: note, firstOnly: true)
        try await note.settle()

        // The damaged edit is lost; the one built on it is refused by the server (its characters need
        // the lost ones), and nothing of either comes back on the device.
        let refusals = await note.syncs[0].takeReportedRefusals()
        #expect(refusals.count == 2 && refusals.allSatisfy { $0.key == .text("n1") }, "\(refusals.map(\.message))")
        for device in 0..<2 {
            #expect(try await note.body(device) == .text("alpha"))
        }
        try await note.write(0, "UPDATE note SET body = 'alpha omega' WHERE id = 'n1'")
        try await note.write(1, "UPDATE note SET body = 'the alpha' WHERE id = 'n1'")
        try await note.settle()
        for device in 0..<2 {
            #expect(try await note.body(device) == .text("the alpha omega"))
        }
        await note.close()
    }

    @Test func damagedRecordedOperationsAreRefusedForTheirRowAndTheRestSyncs() async throws {
        let note = try await TextDevices.make(body: "alpha")
        try await note.devices[0].write { conn in
            try conn.execute("UPDATE note SET body = 'alpha beta', title = 'Renamed' WHERE id = 'n1'")
            try conn.execute("INSERT INTO note(id, title, body) VALUES ('n2', 'Other', 'hello')")
        }
        try await Self.damageRecordedOperations(of: note)
        try await note.settle()

        let refusals = await note.syncs[0].takeReportedRefusals()
        #expect(refusals.map(\.key) == [.text("n1")], "\(refusals.map(\.message))")
        for device in 0..<2 {
            // The edit that only this device had is gone everywhere; the rest synced.
            #expect(try await note.devices[device].rows("note") == [["n1", "Renamed", "alpha", "NULL"], ["n2", "Other", "hello", "NULL"]])
        }
        try await note.write(0, "UPDATE note SET body = 'alpha gamma' WHERE id = 'n1'")
        try await note.write(1, "UPDATE note SET body = 'the alpha' WHERE id = 'n1'")
        try await note.settle()
        for device in 0..<2 {
            #expect(try await note.body(device) == .text("the alpha gamma"))
        }
        await note.close()
    }

    @Test func anEditMadeBeforeTheSnapshotThatRepairsDamagedOperationsIsRefusedNotTypedTwice() async throws {
        let note = try await TextDevices.make(body: "alpha")
        try await note.write(0, "UPDATE note SET body = 'alpha beta' WHERE id = 'n1'")
        try await Self.damageRecordedOperations(of: note)
        // The push repairs the damage (the edit is lost: only this device had it) and asks for a
        // snapshot; before it comes, the user edits the body again.
        _ = try await note.syncs[0].session.pushAll()
        try await note.write(0, "UPDATE note SET body = 'alpha beta delta' WHERE id = 'n1'")
        try await note.settle()

        let refusals = await note.syncs[0].takeReportedRefusals()
        #expect(refusals.count == 2 && refusals.allSatisfy { $0.key == .text("n1") }, "\(refusals.map(\.message))")
        #expect(refusals.contains { $0.values["body"] == .text("alpha beta delta") }, "the edit made meanwhile, for the app to keep")
        for device in 0..<2 {
            // Not the whole text typed again before the server's.
            #expect(try await note.body(device) == .text("alpha"))
        }
        try await note.write(0, "UPDATE note SET body = 'alpha omega' WHERE id = 'n1'")
        try await note.settle()
        for device in 0..<2 {
            #expect(try await note.body(device) == .text("alpha omega"))
        }
        await note.close()
    }

    @Test func textEditsTheServerAcceptedBesideARefusalAreKeptAsSentAndLaterEditsStillArrive() async throws {
        // The server refuses any title starting with "secret".
        let note = try await TextDevices.make(body: "alpha", authorize: { _, change in
            !change.columns.contains { column in
                guard column.name == "title", case .text(let title) = column.value else { return false }
                return title.hasPrefix("secret")
            }
        })
        try await note.write(0, "INSERT INTO note(id, title, body) VALUES ('n2', 'Other', 'hello')")
        try await note.settle()
        // One push: a refused transaction, then two edits of n1's body the server accepts.
        try await note.write(0, "UPDATE note SET title = 'secret plans' WHERE id = 'n2'")
        try await note.write(0, "UPDATE note SET body = 'alpha beta' WHERE id = 'n1'")
        try await note.write(0, "UPDATE note SET body = 'alpha beta gamma' WHERE id = 'n1'")
        _ = try await note.syncs[0].session.pushAll()
        #expect(await note.syncs[0].takeReportedRefusals().map(\.key) == [.text("n2")])
        #expect(try await note.body(0) == .text("alpha beta gamma"))
        // Undoing the refusal folded the later transactions again; an edit after that reaches everyone.
        try await note.write(0, "UPDATE note SET body = 'alpha beta gamma delta' WHERE id = 'n1'")
        try await note.settle()
        for device in 0..<2 {
            #expect(try await note.body(device) == .text("alpha beta gamma delta"))
            #expect(try await note.devices[device].rows("note").map { $0[1] } == ["Plans", "Other"])
        }
        let state = try await note.server.store.read(tenant: "default") { store in try store.rowState(table: "note", key: .text("n1")) }
        #expect(state?.visibleValues(textColumns: ["body"])["body"] == .text("alpha beta gamma delta"))
        await note.close()
    }

    @Test func aPulledTextThatDoesNotReadNeverReplacesOneThatDoes() {
        let earlier = SyncStamp(time: HybridTimestamp(milliseconds: 1, counter: 0), replica: "a")
        let later = SyncStamp(time: HybridTimestamp(milliseconds: 2, counter: 0), replica: "b")
        let sound = CollaborativeTextValue.state(CollaborativeText()).value
        let damaged = DatabaseValue.blob([0x00, 0x42, 0x54, 0x58, 2, 0xFF])
        for (a, b) in [(CellRegister(value: sound, stamp: earlier), CellRegister(value: damaged, stamp: later)),
                       (CellRegister(value: damaged, stamp: later), CellRegister(value: sound, stamp: earlier))] {
            #expect(CellRegister.merge(a, b, asText: true) == CellRegister(value: sound, stamp: later))
        }
    }
}
