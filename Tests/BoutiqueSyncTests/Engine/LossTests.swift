import BoutiqueSync
import BoutiqueSyncServer
import Foundation
import Testing

/// A folder of notes, for the loss tests (type names with capitals: table `noteFolder`).
@Table
struct NoteFolder: Sendable, Equatable {
    @Column(primaryKey: true) let id: String
    var name: String
}

/// A note in a folder (`folderNote.folderID` references `noteFolder`).
@Table
struct FolderNote: Sendable, Equatable {
    @Column(primaryKey: true) let id: String
    var folderID: String?
    var title: String
    var body: String?
}

/// Two devices and a server sharing folders and notes whose folder key has `action` on delete.
struct FolderDevices {
    let server: SyncServer
    let a: DatabaseActor
    let b: DatabaseActor
    let syncA: BoutiqueSync
    let syncB: BoutiqueSync

    static func plan(onDelete action: String) -> BoutiqueMigrationPlan {
        BoutiqueMigrationPlan {
            BoutiqueMigration("v1_folders") { conn in
                try conn.execute("""
                    CREATE TABLE noteFolder(id TEXT PRIMARY KEY NOT NULL, name TEXT NOT NULL DEFAULT '');
                    CREATE TABLE folderNote(id TEXT PRIMARY KEY NOT NULL,
                        folderID TEXT REFERENCES noteFolder(id) ON DELETE \(action), title TEXT NOT NULL DEFAULT '', body TEXT);
                    """)
            }
        }
    }

    /// Both devices hold folders f1 and f2 and note n1 (in f1, written by a).
    static func make(onDelete action: String = "CASCADE") async throws -> FolderDevices {
        let server = try await makeServer()
        let a = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: plan(onDelete: action))
        let b = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: plan(onDelete: action))
        let syncA = try await BoutiqueSync(database: a, tables: [NoteFolder.self, FolderNote.self], server: .inProcess(server))
        let syncB = try await BoutiqueSync(database: b, tables: [NoteFolder.self, FolderNote.self], server: .inProcess(server))
        try await a.write { conn in
            try NoteFolder.insert { NoteFolder(id: "f1", name: "Work"); NoteFolder(id: "f2", name: "Home") }.execute(conn)
            try FolderNote.insert { FolderNote(id: "n1", folderID: "f1", title: "Plans", body: "years of them") }.execute(conn)
        }
        _ = try await syncA.synchronize()
        _ = try await syncB.synchronize()
        return FolderDevices(server: server, a: a, b: b, syncA: syncA, syncB: syncB)
    }

    /// Syncs a, b, a, b, a: every change and every repair reaches everyone.
    func settle(startingWithB: Bool = false) async throws {
        let order = startingWithB ? [syncB, syncA, syncB, syncA, syncB] : [syncA, syncB, syncA, syncB, syncA]
        for sync in order { _ = try await sync.synchronize() }
    }

    func notes(_ database: DatabaseActor) async throws -> [[String]] { try await database.rows("folderNote") }

    func close() async {
        await a.close()
        await b.close()
    }
}

/// No content is destroyed silently: what a merge discards of a device's work is reported to that
/// device, and a move into a folder deleted elsewhere loses instead of taking the note with the folder.
@Suite struct LossTests {
    @Test(arguments: [false, true])
    func aMoveIntoAFolderDeletedElsewhereLosesAndTheNoteStays(deleteReachesTheServerFirst: Bool) async throws {
        let devices = try await FolderDevices.make()
        try await devices.b.write { conn in try conn.execute("DELETE FROM noteFolder WHERE id = 'f2'") }
        if deleteReachesTheServerFirst { _ = try await devices.syncB.synchronize() }
        try await devices.a.write { conn in try conn.execute("UPDATE folderNote SET folderID = 'f2' WHERE id = 'n1'") }
        try await devices.settle()

        let kept = [["n1", "f1", "Plans", "years of them"]]
        #expect(try await devices.notes(devices.a) == kept)
        #expect(try await devices.notes(devices.b) == kept)
        #expect(try await devices.server.visibleRows("foldernote")[.text("n1")]?["folderid"] == .text("f1"))
        let lossesA = await devices.syncA.takeReportedLosses()
        #expect(lossesA.map(\.kind) == [.moveIntoDeletedParent])
        #expect(lossesA.first?.table == "foldernote")
        #expect(lossesA.first?.key == .text("n1"))
        #expect(lossesA.first?.values == ["folderID": .text("f2")])
        #expect(await devices.syncB.takeReportedLosses().isEmpty, "the mover alone hears of its move")
        await devices.close()
    }

    @Test func aMoveTheOtherDeviceRepairedFirstIsStillReportedToTheMover() async throws {
        let devices = try await FolderDevices.make()
        try await devices.b.write { conn in try conn.execute("DELETE FROM noteFolder WHERE id = 'f2'") }
        try await devices.a.write { conn in try conn.execute("UPDATE folderNote SET folderID = 'f2' WHERE id = 'n1'") }
        _ = try await devices.syncA.synchronize()
        // b pushes its delete, pulls the move and repairs the note, then pushes the repair: a hears of
        // the delete and the repair in one pull, and has nothing left to repair itself.
        _ = try await devices.syncB.synchronize()
        _ = try await devices.syncB.synchronize()
        _ = try await devices.syncA.synchronize()

        let kept = [["n1", "f1", "Plans", "years of them"]]
        #expect(try await devices.notes(devices.a) == kept)
        #expect(try await devices.notes(devices.b) == kept)
        let losses = await devices.syncA.takeReportedLosses()
        #expect(losses.map(\.kind) == [.moveIntoDeletedParent])
        #expect(losses.first?.values == ["folderID": .text("f2")])
        #expect(await devices.syncB.takeReportedLosses().isEmpty)
        await devices.close()
    }

    @Test func aMoveWhosePreviousFolderIsGoneTooFollowsTheDeclaredAction() async throws {
        let devices = try await FolderDevices.make(onDelete: "SET NULL")
        try await devices.b.write { conn in try conn.execute("DELETE FROM noteFolder") }
        // b's cascade wrote the note's folder too (NULL): a's move must come later on the clock to win
        // that column. Both devices read one wall clock here, and two writes in one millisecond are
        // ordered by replica id, which would make b's NULL the winner half of the time.
        try await Task.sleep(for: .milliseconds(3))
        try await devices.a.write { conn in try conn.execute("UPDATE folderNote SET folderID = 'f2' WHERE id = 'n1'") }
        try await devices.settle()

        let loose = [["n1", "NULL", "Plans", "years of them"]]
        #expect(try await devices.notes(devices.a) == loose)
        #expect(try await devices.notes(devices.b) == loose)
        #expect(try await devices.server.visibleRows("foldernote")[.text("n1")]?["folderid"] == .null)
        #expect(await devices.syncA.takeReportedLosses().map(\.kind) == [.changedWithDeletedParent])
        await devices.close()
    }

    @Test(arguments: ["CASCADE", "RESTRICT", "NO ACTION"], [false, true])
    func aNoteAddedToAFolderDeletedElsewhereGoesWithIt(action: String, deleteReachesTheServerFirst: Bool) async throws {
        let devices = try await FolderDevices.make(onDelete: action)
        if action != "CASCADE" {
            // Without a cascade, b empties the folder before deleting it.
            try await devices.b.write { conn in try conn.execute("DELETE FROM folderNote WHERE folderID = 'f1'") }
        }
        try await devices.b.write { conn in try conn.execute("DELETE FROM noteFolder WHERE id = 'f1'") }
        if deleteReachesTheServerFirst { _ = try await devices.syncB.synchronize() }
        try await devices.a.write { conn in
            try FolderNote.insert { FolderNote(id: "n2", folderID: "f1", title: "New", body: "added offline") }.execute(conn)
        }
        try await devices.settle()

        #expect(try await devices.notes(devices.a) == [])
        #expect(try await devices.notes(devices.b) == [])
        #expect(try await devices.server.visibleRows("foldernote").isEmpty)
        #expect(try await devices.a.rows("noteFolder") == [["f2", "Home"]])
        #expect(try await devices.b.rows("noteFolder") == [["f2", "Home"]])
        let losses = await devices.syncA.takeReportedLosses().filter { $0.key == .text("n2") }
        #expect(losses.map(\.kind) == [.removedWithDeletedParent])
        #expect(losses.first?.values["title"] == .text("New"))
        #expect(losses.first?.values["body"] == .text("added offline"))
        #expect(await devices.syncB.takeReportedLosses().filter { $0.key == .text("n2") }.isEmpty)
        await devices.close()
    }

    @Test(arguments: [false, true])
    func aNoteAddedToAFolderDeletedElsewhereWithSetNullStaysWithoutFolder(deleteReachesTheServerFirst: Bool) async throws {
        let devices = try await FolderDevices.make(onDelete: "SET NULL")
        try await devices.b.write { conn in try conn.execute("DELETE FROM noteFolder WHERE id = 'f1'") }
        if deleteReachesTheServerFirst { _ = try await devices.syncB.synchronize() }
        try await devices.a.write { conn in
            try FolderNote.insert { FolderNote(id: "n2", folderID: "f1", title: "New", body: "added offline") }.execute(conn)
        }
        try await devices.settle()

        let expected = [["n1", "NULL", "Plans", "years of them"], ["n2", "NULL", "New", "added offline"]]
        #expect(try await devices.notes(devices.a) == expected)
        #expect(try await devices.notes(devices.b) == expected)
        #expect(try await devices.server.visibleRows("foldernote")[.text("n2")]?["folderid"] == .null)
        let losses = await devices.syncA.takeReportedLosses().filter { $0.key == .text("n2") }
        #expect(losses.map(\.kind) == [.changedWithDeletedParent])
        #expect(losses.first?.values == ["folderID": .text("f1")])
        await devices.close()
    }

    @Test func anEditBeatenByALaterDeleteIsReportedWithTheEditedValues() async throws {
        let devices = try await FolderDevices.make()
        try await devices.a.write { conn in try conn.execute("UPDATE folderNote SET title = 'Plans, revised' WHERE id = 'n1'") }
        // Both clocks read the wall clock: a later millisecond makes b's delete the later write.
        try await Task.sleep(for: .milliseconds(3))
        try await devices.b.write { conn in try conn.execute("DELETE FROM folderNote WHERE id = 'n1'") }
        try await devices.settle()

        #expect(try await devices.notes(devices.a) == [])
        #expect(try await devices.notes(devices.b) == [])
        let losses = await devices.syncA.takeReportedLosses()
        #expect(losses.map(\.kind) == [.editBeatenByDelete])
        #expect(losses.first?.values == ["title": .text("Plans, revised")])
        #expect(try losses.first?.values(as: FolderNote.self)
            == FolderNote(id: "n1", folderID: "f1", title: "Plans, revised", body: "years of them"), "the row as this device had it")
        #expect(losses.first.map { $0.stamp.replica } != nil)
        #expect(await devices.syncB.takeReportedLosses().isEmpty)
        await devices.close()
    }

    @Test func anEditLaterThanADeleteDoesNotBringTheRowBackAndIsReported() async throws {
        let devices = try await FolderDevices.make()
        try await devices.b.write { conn in try conn.execute("DELETE FROM folderNote WHERE id = 'n1'") }
        try await Task.sleep(for: .milliseconds(3))
        try await devices.a.write { conn in try conn.execute("UPDATE folderNote SET body = 'written after the delete' WHERE id = 'n1'") }
        try await devices.settle()

        // The merge rule: an update never brings a deleted row back, whatever its stamp.
        #expect(try await devices.notes(devices.a) == [])
        #expect(try await devices.notes(devices.b) == [])
        #expect(try await devices.server.visibleRows("foldernote").isEmpty)
        let losses = await devices.syncA.takeReportedLosses()
        #expect(losses.map(\.kind) == [.editBeatenByDelete])
        #expect(losses.first?.values == ["body": .text("written after the delete")])
        await devices.close()
    }

    @Test func aLossIsKeptUntilTheAppReadsIt() async throws {
        let devices = try await FolderDevices.make()
        try await devices.a.write { conn in try conn.execute("UPDATE folderNote SET title = 'mine' WHERE id = 'n1'") }
        try await Task.sleep(for: .milliseconds(3))
        try await devices.b.write { conn in try conn.execute("DELETE FROM folderNote WHERE id = 'n1'") }
        try await devices.settle()
        // The app starts reading only now: the loss sent during the sync was kept for it.
        let stream = devices.syncA.losses
        let first = await withTaskGroup(of: SyncLoss?.self) { group in
            group.addTask { await stream.first { _ in true } }
            group.addTask {
                try? await Task.sleep(for: .seconds(5))
                return nil
            }
            defer { group.cancelAll() }
            return await group.next() ?? nil
        }
        #expect(first?.kind == .editBeatenByDelete)
        await devices.close()
    }
}
