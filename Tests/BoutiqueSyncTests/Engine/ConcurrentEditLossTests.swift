@testable import BoutiqueSync
import BoutiqueSyncServer
import Foundation
import Testing

/// Two devices editing the same column: the edit overwritten by one made without knowing it is
/// reported to its device once, with its values; one overwritten knowingly is not.
@Suite struct ConcurrentEditLossTests {
    @Test(arguments: [false, true])
    func aConcurrentEditOfTheSameColumnIsReportedOnceToTheLoser(loserPushesFirst: Bool) async throws {
        let devices = try await FolderDevices.make()
        try await devices.a.write { conn in try conn.execute("UPDATE folderNote SET title = 'Plans from a' WHERE id = 'n1'") }
        // Both clocks read the wall clock: a later millisecond makes b's edit the later write.
        try await Task.sleep(for: .milliseconds(3))
        try await devices.b.write { conn in try conn.execute("UPDATE folderNote SET title = 'Plans from b' WHERE id = 'n1'") }
        if loserPushesFirst {
            _ = try await devices.syncA.synchronize()
            _ = try await devices.syncB.synchronize()
        }
        try await devices.settle()

        #expect(try await devices.notes(devices.a) == [["n1", "f1", "Plans from b", "years of them"]])
        #expect(try await devices.notes(devices.b) == [["n1", "f1", "Plans from b", "years of them"]])
        let losses = await devices.syncA.takeReportedLosses()
        #expect(losses.map(\.kind) == [.editBeatenByConcurrentEdit])
        #expect(losses.first?.table == "foldernote")
        #expect(losses.first?.key == .text("n1"))
        #expect(losses.first?.values == ["title": .text("Plans from a")])
        #expect(try losses.first?.values(as: FolderNote.self)
            == FolderNote(id: "n1", folderID: "f1", title: "Plans from a", body: "years of them"))
        #expect(await devices.syncB.takeReportedLosses().isEmpty, "the winner lost nothing")
        await devices.close()
    }

    @Test func anEditOverwrittenByOneMadeAfterPullingItIsNoLoss() async throws {
        let devices = try await FolderDevices.make()
        try await devices.a.write { conn in try conn.execute("UPDATE folderNote SET title = 'Plans from a' WHERE id = 'n1'") }
        _ = try await devices.syncA.synchronize()
        _ = try await devices.syncB.synchronize()
        #expect(try await devices.notes(devices.b).first?[2] == "Plans from a", "b has a's edit")
        try await devices.b.write { conn in try conn.execute("UPDATE folderNote SET title = 'Plans from b' WHERE id = 'n1'") }
        try await devices.settle()

        #expect(try await devices.notes(devices.a).first?[2] == "Plans from b")
        #expect(await devices.syncA.takeReportedLosses().isEmpty, "b overwrote a's edit knowing it")
        #expect(await devices.syncB.takeReportedLosses().isEmpty)
        await devices.close()
    }

    @Test func anEditThatLostAtTheServerIsReportedWhenTheWinnerArrives() async throws {
        let devices = try await FolderDevices.make()
        // b edits first (offline), a edits later and pushes first: b's edit loses at the server and is
        // never in its log; b learns it lost from a's edit, made without it.
        try await devices.b.write { conn in try conn.execute("UPDATE folderNote SET body = 'b, earlier' WHERE id = 'n1'") }
        try await Task.sleep(for: .milliseconds(3))
        try await devices.a.write { conn in try conn.execute("UPDATE folderNote SET body = 'a, later' WHERE id = 'n1'") }
        _ = try await devices.syncA.synchronize()
        try await devices.settle(startingWithB: true)

        #expect(try await devices.notes(devices.b).first?[3] == "a, later")
        let losses = await devices.syncB.takeReportedLosses()
        #expect(losses.map(\.kind) == [.editBeatenByConcurrentEdit])
        #expect(losses.first?.values == ["body": .text("b, earlier")])
        #expect(await devices.syncA.takeReportedLosses().isEmpty)
        await devices.close()
    }

    @Test func aWriteMadeBeforeAPullDidNotSeeWhatThatPullBroughtEvenIfPushedAfterIt() async throws {
        let devices = try await FolderDevices.make()
        try await devices.a.write { conn in try conn.execute("UPDATE folderNote SET title = 'Plans from a' WHERE id = 'n1'") }
        _ = try await devices.syncA.synchronize()
        try await Task.sleep(for: .milliseconds(3))
        // b writes without a's edit, then pulls it (its own later edit wins there) and only then pushes:
        // it made its edit without a's, whatever its cursor was when the edit left.
        try await devices.b.write { conn in try conn.execute("UPDATE folderNote SET title = 'Plans from b' WHERE id = 'n1'") }
        _ = try await devices.syncB.session.pullOnce(wait: .zero)
        #expect(try await devices.notes(devices.b).first?[2] == "Plans from b")
        try await devices.settle(startingWithB: true)

        #expect(try await devices.notes(devices.a).first?[2] == "Plans from b")
        let losses = await devices.syncA.takeReportedLosses()
        #expect(losses.map(\.kind) == [.editBeatenByConcurrentEdit])
        #expect(losses.first?.values == ["title": .text("Plans from a")])
        await devices.close()
    }

    @Test func lossValuesAreNamedAsTheTableDeclaresItsColumns() async throws {
        let devices = try await FolderDevices.make()
        try await devices.b.write { conn in try conn.execute("DELETE FROM noteFolder WHERE id = 'f2'") }
        _ = try await devices.syncB.synchronize()
        try await devices.a.write { conn in try conn.execute("UPDATE folderNote SET folderID = 'f2' WHERE id = 'n1'") }
        try await devices.settle()
        let losses = await devices.syncA.takeReportedLosses()
        #expect(losses.map(\.kind) == [.moveIntoDeletedParent])
        #expect(losses.first?.values == ["folderID": .text("f2")], "the schema's spelling, not lowercased")
        await devices.close()
    }
}
