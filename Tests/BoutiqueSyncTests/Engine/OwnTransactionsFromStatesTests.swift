@testable import BoutiqueSync
import Testing

/// The changes that rebuild a file's own part of a row's state, one per transaction stamp, for a
/// server restored from a backup: what later writes overwrote is not sent, and an older value sent
/// again never beats a newer one.
@Suite struct OwnTransactionsFromStatesTests {
    static func stamp(_ milliseconds: UInt64, _ writer: String) -> SyncStamp {
        SyncStamp(time: HybridTimestamp(milliseconds: milliseconds), replica: writer)
    }

    static func change(_ kind: SyncChange.Kind, _ stamp: SyncStamp, _ columns: [String: String] = [:]) -> SyncChange {
        SyncChange(
            table: "note", key: .text("n1"), kind: kind,
            columns: columns.sorted { $0.key < $1.key }.map { SyncColumnValue(name: $0.key, value: .text($0.value)) }, stamp: stamp)
    }

    @Test func eachOwnWriteGoesWithWhatTheRowStillShowsOfIt() {
        let inserted = Self.stamp(1_000, "mine")
        let edited = Self.stamp(2_000, "mine")
        let others = Self.stamp(3_000, "theirs")
        var state = RowRegister()
        MergeRule.apply(Self.change(.insert, inserted, ["title": "first", "body": "text"]), to: &state)
        MergeRule.apply(Self.change(.update, edited, ["title": "second"]), to: &state)
        MergeRule.apply(Self.change(.update, others, ["body": "their text"]), to: &state)

        let changes = OwnTransactionsFromStates.changes(of: state, table: "note", key: .text("n1"), among: [inserted, edited])
        // The insert's values were both overwritten: it goes as the row's existence alone.
        #expect(changes == [Self.change(.insert, inserted), Self.change(.update, edited, ["title": "second"])])

        // A server holding the other device's write and an older title takes the file's back, and
        // keeps the newer body.
        var server = RowRegister()
        MergeRule.apply(Self.change(.insert, Self.stamp(500, "mine"), ["title": "zero", "body": "zero"]), to: &server)
        MergeRule.apply(Self.change(.update, others, ["body": "their text"]), to: &server)
        for change in changes { MergeRule.apply(change, to: &server) }
        #expect(server.visibleValues == state.visibleValues)
        #expect(server.isVisible)
    }

    @Test func aDeleteGoesAsADeleteAndEditsOfARowDeletedElsewhereDoNotBringItBack() {
        let inserted = Self.stamp(1_000, "mine")
        let removed = Self.stamp(2_000, "mine")
        var deletedHere = RowRegister()
        MergeRule.apply(Self.change(.insert, inserted, ["title": "gone"]), to: &deletedHere)
        MergeRule.apply(Self.change(.delete, removed), to: &deletedHere)
        let changes = OwnTransactionsFromStates.changes(of: deletedHere, table: "note", key: .text("n1"), among: [inserted, removed])
        #expect(changes.map(\.kind) == [.update, .delete])
        var server = RowRegister()
        MergeRule.apply(Self.change(.insert, Self.stamp(500, "mine"), ["title": "zero"]), to: &server)
        for change in changes { MergeRule.apply(change, to: &server) }
        #expect(!server.isVisible, "the row the file deleted is deleted on the server")

        let deletedThere = Self.stamp(3_000, "theirs")
        var edited = RowRegister()
        MergeRule.apply(Self.change(.insert, Self.stamp(500, "theirs"), ["title": "theirs"]), to: &edited)
        MergeRule.apply(Self.change(.update, inserted, ["title": "mine"]), to: &edited)
        MergeRule.apply(Self.change(.delete, deletedThere), to: &edited)
        let edits = OwnTransactionsFromStates.changes(of: edited, table: "note", key: .text("n1"), among: [inserted])
        #expect(edits == [Self.change(.update, inserted, ["title": "mine"])], "the file's edit, not an insert")
    }
}
