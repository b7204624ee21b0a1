import BoutiqueSync
import BoutiqueSyncServer
import Foundation
import Testing

/// The file's clock never goes back: a commit's stamp is later than every stamp the file handed out
/// or saw before it, whichever connection committed, whatever came in between, across a reopen.
///
/// Every wall clock here stands still, so a stamp can only be later than the one before by the
/// clock's counter, which moves only if the reading it ticks from includes that earlier stamp.
@MainActor @Suite struct FileClockTests {
    nonisolated static let wall: UInt64 = 1_800_000_000_000

    @Test func twoConnectionsWritingInTurnStampEachWriteLater() async throws {
        let folder = try SyncTemporaryDirectory()
        let url = folder.file("shared.db")
        let app = try await DatabaseActor.open(url: url, migrations: SyncTestSchema.plan)
        let sync = try await BoutiqueSync(
            database: app, tables: ["note"], server: .inProcess(try await makeServer()),
            options: SyncOptions(wallClock: { Self.wall }))
        // A second connection to the file, without sync: a widget's process, say.
        let widget = try await DatabaseActor.open(url: url, migrations: SyncTestSchema.plan)
        await widget.setCommitStampClock({ Self.wall }, writer: "widget")
        for turn in 0..<6 {
            let writer = turn.isMultiple(of: 2) ? app : widget
            try await writer.write { conn in
                try conn.execute("INSERT INTO note(id, title) VALUES (?, 'turn')", [.text("n\(turn)")])
            }
        }
        let stamps = try await Self.localStamps(app)
        #expect(stamps.count == 6)
        #expect(stamps == stamps.sorted() && Set(stamps).count == stamps.count, "every stamp is later than the one before: \(stamps)")
        _ = sync
        await widget.close()
        await app.close()
    }

    @Test func aRemoteTransactionInBetweenDoesNotTakeTheClockBack() async throws {
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let sync = try await BoutiqueSync(
            database: database, tables: ["note"], server: .inProcess(try await makeServer()),
            options: SyncOptions(wallClock: { Self.wall }))
        try await database.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES ('n1', 'local')") }
        try await database.write(origin: .remote) { conn in
            try conn.execute("INSERT INTO note(id, title) VALUES ('n2', 'from another device')")
        }
        try await database.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES ('n3', 'local again')") }
        let stamps = try await Self.localStamps(database)
        #expect(stamps.count == 2)
        #expect(stamps.first.map { first in stamps.last.map { $0 > first } ?? false } == true, "later, not \(stamps)")
        _ = sync
        await database.close()
    }

    @Test func aReopenedFileStampsPastItsLastStamp() async throws {
        let folder = try SyncTemporaryDirectory()
        let url = folder.file("reopened.db")
        var database = try await DatabaseActor.open(url: url, migrations: SyncTestSchema.plan)
        var sync: BoutiqueSync? = try await BoutiqueSync(
            database: database, tables: ["note"], server: .inProcess(try await makeServer()),
            options: SyncOptions(wallClock: { Self.wall }))
        for row in 0..<3 {
            try await database.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES (?, 'before')", [.text("a\(row)")]) }
        }
        sync = nil
        await database.close()
        database = try await DatabaseActor.open(url: url, migrations: SyncTestSchema.plan)
        await database.setCommitStampClock({ Self.wall }, writer: "reopened")
        try await database.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES ('b', 'after')") }
        let stamps = try await Self.localStamps(database)
        #expect(stamps.count == 4)
        #expect(stamps == stamps.sorted() && Set(stamps).count == 4, "the stamp after reopening is the latest: \(stamps)")
        _ = sync
        await database.close()
    }

    @Test func aPullMarkIsNoEarlierThanTheWritesMadeBeforeIt() async throws {
        let server = SyncServer(
            store: try await SQLiteSyncStore.open(url: BoutiqueDB.inMemoryURL()), maximumClockSkewMilliseconds: 600_000,
            wallClock: { Self.wall })
        let device = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let deviceSync = try await BoutiqueSync(
            database: device, tables: ["note"], server: .inProcess(server), options: SyncOptions(wallClock: { Self.wall }))
        let other = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let otherSync = try await BoutiqueSync(
            database: other, tables: ["note"], server: .inProcess(server), options: SyncOptions(wallClock: { Self.wall - 60_000 }))
        _ = try await deviceSync.synchronize()
        // Written before the device pulls the other device's earlier-stamped change.
        try await device.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES ('mine', 'before the pull')") }
        try await other.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES ('theirs', 'a minute behind')") }
        _ = try await otherSync.synchronize()
        _ = try await deviceSync.synchronize()
        #expect(try await device.rows("note").map { $0[0] } == ["mine", "theirs"])
        let stamp = try #require(try await Self.localStamps(device).first)
        let marks = try await device.read { conn in
            try conn.fetchAll("SELECT clock, cursor FROM boutique_sync_pull_mark ORDER BY clock").map { row in
                (UInt64(bitPattern: Self.integer(row.values[0])), Self.integer(row.values[1]))
            }
        }
        let latest = try #require(marks.last)
        #expect(latest.1 > 0 && latest.0 >= stamp, "the mark of the pull that brought 'theirs' is past the write before it: \(marks), \(stamp)")
        await other.close()
        await device.close()
    }

    /// The stamps of the file's local transactions, in commit order.
    nonisolated static func localStamps(_ database: DatabaseActor) async throws -> [UInt64] {
        try await database.read { conn in
            try conn.fetchAll("SELECT stamp FROM boutique_sync_txn WHERE remote = 0 ORDER BY change_txn_id").map { row in
                UInt64(bitPattern: integer(row.values[0]))
            }
        }
    }

    nonisolated static func integer(_ value: DatabaseValue) -> Int64 {
        if case .integer(let number) = value { number } else { 0 }
    }
}
