// The HTTP front end is part of the package where GNU libmicrohttpd is installed; so are its tests.
#if BOUTIQUE_SYNC_HTTP
import BoutiqueSync
import BoutiqueSyncHTTP
import BoutiqueSyncServer
import Foundation
import Testing

/// `sync.attachments` between two devices and a server keeping attachments, over real HTTP on 127.0.0.1
/// in one process: a row's attachment is queued by its transaction, uploaded after the push, counted
/// by the status meanwhile, and fetched by the other device with progress; a fetch of bytes not
/// uploaded yet waits, or says so.
@Suite struct AttachmentSyncHTTPTests {
    static func device() async throws -> DatabaseActor {
        try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncPhotoSchema.plan)
    }

    @Test func aRowsAttachmentIsUploadedAfterItsPushAndFetchedByTheOtherDevice() async throws {
        let folder = try SyncTemporaryDirectory()
        let server = try await HTTPTestServer(attachments: try FolderAttachmentStore(directory: folder.url))
        let a = try await Self.device(), b = try await Self.device()
        let syncA = try await BoutiqueSync(database: a, tables: [SyncPhoto.self], server: try server.transport(user: "ana"))
        let syncB = try await BoutiqueSync(database: b, tables: [SyncPhoto.self], server: try server.transport(user: "bo"))

        let bytes = Data((0..<(9 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) })
        let image = try await a.attachments.store(bytes, contentType: "image/png")
        try await a.write { conn in try SyncPhoto.insert { SyncPhoto(id: "p1", caption: "Beach", image: image) }.execute(conn) }
        _ = try await syncA.push()
        #expect(await MainActor.run { syncA.status.attachmentsWaitingToUpload } == 1, "queued by the row's transaction")

        // B has the row, but not the bytes: the fetch says so when asked not to wait.
        #expect(try await syncB.synchronize().applied == 1)
        await #expect(throws: BoutiqueError.attachmentNotUploaded(id: image.id)) {
            try await syncB.attachments.fetch(image, waitingForUpload: false)
        }
        // A fetch that waits gets them once A's sync uploads them.
        let progress = syncB.attachments.progress
        let waiting = Task { try await syncB.attachments.fetch(image) }
        // Only to see a hang: a fetch still waiting after a minute is cancelled, and fails the test.
        let watchdog = Task {
            try await Task.sleep(for: .seconds(syncHangDeadline(seconds: 60)))
            waiting.cancel()
        }
        _ = try await syncA.synchronize()
        #expect(await MainActor.run { syncA.status.attachmentsWaitingToUpload } == 0)
        try await waiting.value
        watchdog.cancel()
        #expect(try await b.attachments.data(for: image) == bytes)
        var reports: [AttachmentProgress] = []
        for await report in progress {
            reports.append(report)
            if report.bytesDone == report.byteCount { break }
        }
        #expect(reports.allSatisfy { $0.id == image.id && $0.direction == .download && $0.byteCount == Int64(bytes.count) })
        #expect(reports.count >= 3, "9 MiB come in ranges: \(reports.map(\.bytesDone))")
        await a.close()
        await b.close()
        await server.stop()
    }

    @Test func anEagerDeviceFetchesWhatItsRowsPointAtUpToItsLimit() async throws {
        let pair = try await AttachmentCacheHTTPTests.Pair.make(options: SyncOptions(attachments: .eager(maxBytes: 1_000)))
        let (a, b, syncA, syncB) = (pair.a, pair.b, pair.syncA, pair.syncB)
        let small = try await a.attachments.store(Data("small".utf8), contentType: "text/plain")
        let large = try await a.attachments.store(Data(repeating: 7, count: 5_000), contentType: "application/octet-stream")
        try await a.write { conn in
            try SyncPhoto.insert { SyncPhoto(id: "p1", caption: "Small", image: small) }.execute(conn)
            try SyncPhoto.insert { SyncPhoto(id: "p2", caption: "Large", image: large) }.execute(conn)
        }
        _ = try await syncA.synchronize()
        _ = try await syncB.synchronize()
        #expect(try await b.attachments.state(of: small) == .local)
        #expect(try await b.attachments.state(of: large) == .missing, "over the eager limit: on demand")
        await pair.close()
    }

    /// Bytes an eager round cannot fetch (here the server's copy was damaged on its disk: the device
    /// refuses bytes that are not the id's) fail neither that sync nor the next: the rows arrive, the
    /// other attachments come, the status counts the one that did not, and it comes once it can.
    @Test func anAttachmentAnEagerRoundCannotFetchIsCountedAndFailsNoSync() async throws {
        let pair = try await AttachmentCacheHTTPTests.Pair.make(options: SyncOptions(attachments: .eager(maxBytes: 1_000)))
        let (a, b, syncA, syncB) = (pair.a, pair.b, pair.syncA, pair.syncB)
        let good = try await a.attachments.store(Data("good".utf8), contentType: "text/plain")
        let spoilt = try await a.attachments.store(Data("spoilt".utf8), contentType: "text/plain")
        try await a.write { conn in
            try SyncPhoto.insert { SyncPhoto(id: "p1", caption: "Good", image: good) }.execute(conn)
            try SyncPhoto.insert { SyncPhoto(id: "p2", caption: "Spoilt", image: spoilt) }.execute(conn)
        }
        _ = try await syncA.synchronize()
        let stored = try #require(FileManager.default.enumerator(at: pair.folder.url, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.first { $0.lastPathComponent == spoilt.id })
        try Data("SPOILT".utf8).write(to: stored)

        for round in 1...2 {
            #expect(try await syncB.synchronize().applied == (round == 1 ? 2 : 0), "round \(round)")
            #expect(await MainActor.run { syncB.status.attachmentsNotFetched } == 1, "round \(round)")
        }
        #expect(try await b.read { conn in try SyncPhoto.all.fetchAll(conn) }.count == 2)
        #expect(try await b.attachments.state(of: good) == .local)
        #expect(try await b.attachments.state(of: spoilt) == .missing)
        // Asked directly, the fetch says why.
        await #expect(throws: (any Error).self) { try await syncB.attachments.fetch(spoilt, waitingForUpload: false) }

        try Data("spoilt".utf8).write(to: stored)
        _ = try await syncB.synchronize()
        #expect(await MainActor.run { syncB.status.attachmentsNotFetched } == 0)
        #expect(try await b.attachments.data(for: spoilt) == Data("spoilt".utf8))
        await pair.close()
    }

    @Test func aServerWithoutAttachmentsSyncsTheRowsAndTheAttachmentWaits() async throws {
        let server = try await HTTPTestServer()
        let a = try await Self.device(), b = try await Self.device()
        let syncA = try await BoutiqueSync(database: a, tables: [SyncPhoto.self], server: try server.transport(user: "ana"))
        let syncB = try await BoutiqueSync(database: b, tables: [SyncPhoto.self], server: try server.transport(user: "bo"))
        let image = try await a.attachments.store(Data("a photo".utf8), contentType: "image/png")
        try await a.write { conn in try SyncPhoto.insert { SyncPhoto(id: "p1", caption: "Beach", image: image) }.execute(conn) }

        // Every round syncs the rows and succeeds; the attachment waits for a server that keeps them.
        for round in 1...2 {
            _ = try await syncA.synchronize()
            let status = await MainActor.run { syncA.status }
            #expect(status.pendingCount == 0, "round \(round)")
            #expect(status.attachmentsWaitingToUpload == 1, "round \(round)")
            #expect(status.attachmentsRefused == 0, "round \(round): a server without attachments refuses nothing")
        }
        #expect(try await syncB.synchronize().applied == 1)
        #expect(try await b.read { conn in try SyncPhoto.all.fetchAll(conn) }.map { $0.image } == [image])
        #expect(try await syncA.attachments.refused().isEmpty)
        // Asked directly, the upload says why it did not go.
        await #expect {
            try await syncA.attachments.uploadWaiting()
        } throws: { error in
            guard case BoutiqueError.syncUnavailable(let reason) = error else { return false }
            return reason.contains("keeps no attachments")
        }
        #expect(try await a.attachments.state(of: image) == .local, "the bytes stay")
        await a.close()
        await b.close()
        await server.stop()
    }

    @Test func anAttachmentTheServerRefusesIsReportedAndNotResentAtOnceAndTheOthersUpload() async throws {
        let folder = try SyncTemporaryDirectory()
        let log = CapturedLog()
        let server = try await HTTPTestServer(
            log: log.log(), attachments: try FolderAttachmentStore(directory: folder.url, maximumAttachmentBytes: 1_000))
        let a = try await Self.device(), b = try await Self.device()
        let syncA = try await BoutiqueSync(database: a, tables: [SyncPhoto.self], server: try server.transport(user: "ana"))
        let syncB = try await BoutiqueSync(database: b, tables: [SyncPhoto.self], server: try server.transport(user: "bo"))
        let large = try await a.attachments.store(Data(repeating: 7, count: 5_000), contentType: "application/octet-stream")
        // Queued after the large one (the queue goes by id), so that the refusal stands in its way.
        var smallBytes = Data("small".utf8)
        while try await a.attachments.store(smallBytes, contentType: "text/plain").id < large.id { smallBytes.append(UInt8(ascii: ".")) }
        let small = try await a.attachments.store(smallBytes, contentType: "text/plain"), smallData = smallBytes
        try await a.write { conn in
            try SyncPhoto.insert { SyncPhoto(id: "p1", caption: "Large", image: large) }.execute(conn)
            try SyncPhoto.insert { SyncPhoto(id: "p2", caption: "Small", image: small) }.execute(conn)
        }

        _ = try await syncA.synchronize()
        let status = await MainActor.run { syncA.status }
        #expect(status.attachmentsWaitingToUpload == 0)
        #expect(status.attachmentsRefused == 1)
        let refused = try await syncA.attachments.refused()
        #expect(refused.map(\.attachment) == [large])
        #expect(refused.first?.refusal.reason == .tooLarge)
        #expect(refused.first?.refusal.message.contains("1000") == true, "the server's reason: \(refused.first?.refusal.message ?? "")")
        #expect(try await a.attachments.state(of: large) == .local, "refused bytes are kept")
        _ = try await syncB.synchronize()
        try await syncB.attachments.fetch(small, waitingForUpload: false)
        #expect(try await b.attachments.data(for: small) == smallData)

        // The next round sends another attachment, and nothing more of the refused one.
        #expect(try await log.line(containing: large.id, "413") != nil)
        let askedForLarge = log.all.filter { $0.contains(large.id) }.count
        let later = try await a.attachments.store(Data("later".utf8), contentType: "text/plain")
        try await a.write { conn in try SyncPhoto.insert { SyncPhoto(id: "p3", caption: "Later", image: later) }.execute(conn) }
        _ = try await syncA.synchronize()
        #expect(try await log.line(containing: "PUT", later.id, "200") != nil)
        #expect(log.all.filter { $0.contains(large.id) }.count == askedForLarge, "a refused attachment is not sent again")
        #expect(try await syncA.attachments.refused() == refused)
        #expect(await MainActor.run { syncA.status.attachmentsRefused } == 1)
        await a.close()
        await b.close()
        await server.stop()
    }

    /// An app that turns sync on for a database that already holds photos uploads their bytes: the
    /// rows were written before the column's trigger existed, so setting up sync queues them.
    @Test func attachmentsOfRowsWrittenBeforeSyncWasSetUpAreUploaded() async throws {
        let folder = try SyncTemporaryDirectory()
        let server = try await HTTPTestServer(attachments: try FolderAttachmentStore(directory: folder.url))
        let a = try await Self.device()
        let image = try await a.attachments.store(Data("taken before sync".utf8), contentType: "image/png")
        try await a.write { conn in try SyncPhoto.insert { SyncPhoto(id: "p1", caption: "Old", image: image) }.execute(conn) }
        let syncA = try await BoutiqueSync(database: a, tables: [SyncPhoto.self], server: try server.transport())
        _ = try await syncA.synchronize()
        #expect(await MainActor.run { syncA.status.attachmentsWaitingToUpload } == 0)

        let b = try await Self.device()
        let syncB = try await BoutiqueSync(database: b, tables: [SyncPhoto.self], server: try server.transport(user: "bo"))
        _ = try await syncB.synchronize()
        try await syncB.attachments.fetch(image, waitingForUpload: false)
        #expect(try await b.attachments.data(for: image) == Data("taken before sync".utf8))
        await a.close()
        await b.close()
        await server.stop()
    }

    /// An attachment refused for the tenant's quota is sent again an hour later, and goes once the
    /// quota has room (here the server's copy of another attachment is removed, as housekeeping does
    /// with bytes no row points at).
    @Test func anAttachmentRefusedForTheQuotaGoesOnceTheQuotaFrees() async throws {
        let folder = try SyncTemporaryDirectory()
        let log = CapturedLog()
        let server = try await HTTPTestServer(
            log: log.log(), attachments: try FolderAttachmentStore(directory: folder.url, tenantQuotaBytes: 6_000))
        // Behind the server's clock by more than the test moves it: the server refuses stamps ahead of it.
        let clock = Lock<UInt64>(UInt64(Date().timeIntervalSince1970 * 1_000) - 3 * 3_600_000)
        let a = try await Self.device()
        let syncA = try await BoutiqueSync(
            database: a, tables: [SyncPhoto.self], server: try server.transport(),
            options: SyncOptions(wallClock: { clock.withLock { $0 } }))
        let first = try await a.attachments.store(Data(repeating: 1, count: 5_000), contentType: "image/png")
        try await a.write { conn in try SyncPhoto.insert { SyncPhoto(id: "p1", caption: "First", image: first) }.execute(conn) }
        _ = try await syncA.synchronize()
        let second = try await a.attachments.store(Data(repeating: 2, count: 3_000), contentType: "image/png")
        try await a.write { conn in try SyncPhoto.insert { SyncPhoto(id: "p2", caption: "Second", image: second) }.execute(conn) }
        _ = try await syncA.synchronize()
        #expect(try await syncA.attachments.refused().map(\.attachment) == [second])
        #expect(try await syncA.attachments.refused().first?.refusal.message.contains("quota") == true)

        // The quota frees; within the hour the refused attachment is not sent.
        try await a.write { conn in try SyncPhoto.delete().where { $0.id == "p1" }.execute(conn) }
        let stored = try #require(FileManager.default.enumerator(at: folder.url, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.first { $0.lastPathComponent == first.id })
        try FileManager.default.removeItem(at: stored)
        let asked = log.all.filter { $0.contains(second.id) }.count
        clock.withLock { $0 += 59 * 60_000 }
        _ = try await syncA.synchronize()
        #expect(log.all.filter { $0.contains(second.id) }.count == asked, "not sent again within the hour")
        #expect(await MainActor.run { syncA.status.attachmentsRefused } == 1)

        clock.withLock { $0 += 2 * 60_000 }
        _ = try await syncA.synchronize()
        #expect(try await syncA.attachments.refused().isEmpty)
        #expect(await MainActor.run { syncA.status.attachmentsRefused } == 0)
        let b = try await Self.device()
        let syncB = try await BoutiqueSync(database: b, tables: [SyncPhoto.self], server: try server.transport(user: "bo"))
        _ = try await syncB.synchronize()
        try await syncB.attachments.fetch(second, waitingForUpload: false)
        #expect(try await b.attachments.data(for: second) == Data(repeating: 2, count: 3_000))
        await a.close()
        await b.close()
        await server.stop()
    }
}
#endif
