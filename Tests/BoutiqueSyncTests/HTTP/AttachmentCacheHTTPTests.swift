// The HTTP front end is part of the package where GNU libmicrohttpd is installed; so are its tests.
#if BOUTIQUE_SYNC_HTTP
import BoutiqueSync
import BoutiqueSyncHTTP
import BoutiqueSyncServer
import Foundation
import Testing

/// `SyncOptions(attachmentCacheBytes:)` between two devices and a server keeping attachments, over real
/// HTTP on 127.0.0.1: past the budget the least recently used attachments the server holds leave the
/// device (a read counts as a use), the one just fetched stays, bytes not uploaded never leave, and an
/// eager round fetches only what fits.
@Suite struct AttachmentCacheHTTPTests {
    /// A server keeping attachments in a folder; device A writes photos (fetching on demand), device B
    /// reads them with `options`. The eager tests of `AttachmentSyncHTTPTests` use it too.
    struct Pair {
        let folder: SyncTemporaryDirectory
        let server: HTTPTestServer
        let a: DatabaseActor, b: DatabaseActor
        let syncA: BoutiqueSync, syncB: BoutiqueSync

        static func make(options: SyncOptions) async throws -> Pair {
            let folder = try SyncTemporaryDirectory()
            let server = try await HTTPTestServer(attachments: try FolderAttachmentStore(directory: folder.url))
            let a = try await AttachmentSyncHTTPTests.device(), b = try await AttachmentSyncHTTPTests.device()
            let syncA = try await BoutiqueSync(database: a, tables: [SyncPhoto.self], server: try server.transport())
            let syncB = try await BoutiqueSync(database: b, tables: [SyncPhoto.self], server: try server.transport(), options: options)
            return Pair(folder: folder, server: server, a: a, b: b, syncA: syncA, syncB: syncB)
        }

        /// Device A stores `count` photos of `bytes` bytes each (p1, p2, …), syncs them up, and B pulls the rows.
        func photos(_ count: Int, bytes: Int) async throws -> [StoredAttachment] {
            var images: [StoredAttachment] = []
            for index in 1...count {
                let image = try await a.attachments.store(Data(repeating: UInt8(index), count: bytes), contentType: "image/png")
                try await a.write { conn in try SyncPhoto.insert { SyncPhoto(id: "p\(index)", caption: "Photo \(index)", image: image) }.execute(conn) }
                images.append(image)
            }
            _ = try await syncA.synchronize()
            #expect(await MainActor.run { syncA.status.attachmentsWaitingToUpload } == 0)
            _ = try await syncB.synchronize()
            return images
        }

        func states(_ images: [StoredAttachment], on database: DatabaseActor) async throws -> [AttachmentState] {
            var states: [AttachmentState] = []
            for image in images { states.append(try await database.attachments.state(of: image)) }
            return states
        }

        func close() async {
            await a.close()
            await b.close()
            await server.stop()
        }
    }

    @Test func pastTheBudgetTheLeastRecentlyUsedLeaveAndAReadCountsAsAUse() async throws {
        let pair = try await Pair.make(options: SyncOptions(attachmentCacheBytes: 25_000))
        let images = try await pair.photos(3, bytes: 10_000)
        let (b, syncB) = (pair.b, pair.syncB)
        #expect(try await pair.states(images, on: b) == [.missing, .missing, .missing], "on demand: nothing yet")

        try await syncB.attachments.fetch(images[0])
        try await syncB.attachments.fetch(images[1])
        // Reading the first makes the second the least recently used.
        #expect(try await b.attachments.data(for: images[0]) == Data(repeating: 1, count: 10_000))
        try await syncB.attachments.fetch(images[2])
        #expect(try await pair.states(images, on: b) == [.local, .missing, .local])

        // Fetched again, the second comes back and pushes out the first, now the least recently used.
        try await syncB.attachments.fetch(images[1])
        #expect(try await pair.states(images, on: b) == [.missing, .local, .local])
        // A file URL handed out is a use too.
        _ = try await b.attachments.fileURL(for: images[1])
        try await syncB.attachments.fetch(images[0])
        #expect(try await pair.states(images, on: b) == [.local, .local, .missing])
        await pair.close()
    }

    @Test func theAttachmentJustFetchedStaysEvenLargerThanTheBudget() async throws {
        let pair = try await Pair.make(options: SyncOptions(attachmentCacheBytes: 5_000))
        let images = try await pair.photos(2, bytes: 10_000)
        try await pair.syncB.attachments.fetch(images[0])
        #expect(try await pair.states(images, on: pair.b) == [.local, .missing])
        try await pair.syncB.attachments.fetch(images[1])
        #expect(try await pair.states(images, on: pair.b) == [.missing, .local])
        await pair.close()
    }

    /// Bytes this device holds that the server has not confirmed are never evicted, whatever the
    /// budget; once uploaded, they count like the rest.
    @Test func bytesNotUploadedAreNeverEvicted() async throws {
        let pair = try await Pair.make(options: SyncOptions(attachmentCacheBytes: 0))
        let images = try await pair.photos(2, bytes: 10_000)
        let (b, syncB) = (pair.b, pair.syncB)
        let own = try await b.attachments.store(Data(repeating: 9, count: 30_000), contentType: "image/heic")
        try await b.write { conn in try SyncPhoto.insert { SyncPhoto(id: "b1", caption: "Mine", image: own) }.execute(conn) }
        // Stored before any row pointed at them, and not in any queue: bytes only this device has.
        let loose = try await b.attachments.store(Data("loose".utf8), contentType: "text/plain")

        try await syncB.attachments.fetch(images[0])
        try await syncB.attachments.fetch(images[1])
        #expect(try await pair.states(images, on: b) == [.missing, .local])
        #expect(try await b.attachments.state(of: own) == .local, "waiting to upload")
        #expect(try await b.attachments.state(of: loose) == .local, "never sent")

        #expect(try await syncB.attachments.uploadWaiting() == 1)
        #expect(try await b.attachments.state(of: own) == .missing, "uploaded, it is over the budget of 0 like the rest")
        #expect(try await b.attachments.state(of: loose) == .local)
        // The server has it: another device gets it.
        _ = try await pair.syncA.synchronize()
        try await pair.syncA.attachments.fetch(own, waitingForUpload: false)
        #expect(try await pair.a.attachments.data(for: own) == Data(repeating: 9, count: 30_000))
        await pair.close()
    }

    /// A pulled row's attachment that this device had no bytes of is dropped from its upload queue,
    /// but that says nothing of the server: bytes the device stores itself later are not evicted.
    @Test func anAttachmentDroppedForLackOfBytesIsNotTakenForConfirmed() async throws {
        let pair = try await Pair.make(options: SyncOptions(attachmentCacheBytes: 0))
        let (a, b, syncB) = (pair.a, pair.b, pair.syncB)
        let shared = Data(repeating: 5, count: 8_000)
        let notUploaded = try await a.attachments.store(shared, contentType: "image/png")
        try await a.write { conn in try SyncPhoto.insert { SyncPhoto(id: "q1", caption: "Not yet", image: notUploaded) }.execute(conn) }
        _ = try await pair.syncA.push()
        _ = try await syncB.synchronize()  // pulls the row; its upload round drops what it has no bytes of
        #expect(try await b.attachments.store(shared, contentType: "image/png") == notUploaded, "the same bytes, stored on B")

        let other = try await pair.photos(1, bytes: 3_000)
        try await syncB.attachments.fetch(other[0])
        #expect(try await b.attachments.state(of: notUploaded) == .local, "the server never confirmed them to B")
        await pair.close()
    }

    /// Bytes a row of a table that does not sync points at stay: the server keeps only what synced rows need.
    @Test func bytesALocalOnlyTablePointsAtAreNotEvicted() async throws {
        let pair = try await Pair.make(options: SyncOptions(attachmentCacheBytes: 0))
        let images = try await pair.photos(2, bytes: 4_000)
        let (b, syncB) = (pair.b, pair.syncB)
        try await syncB.attachments.fetch(images[0])
        let value = String(decoding: try JSONEncoder().encode(images[0]), as: UTF8.self)
        try await b.write { conn in
            try conn.execute("CREATE TABLE favorite(id INTEGER PRIMARY KEY, image TEXT NOT NULL)")
            try conn.execute("INSERT INTO favorite(image) VALUES (?)", [.text(value)])
        }
        try await syncB.attachments.fetch(images[1])
        #expect(try await pair.states(images, on: b) == [.local, .local])
        await pair.close()
    }

    /// An eager round fetches what fits in the room the budget leaves, and evicts nothing; the rest is
    /// not counted as failed, and comes on demand.
    @Test func anEagerRoundFetchesOnlyWhatFits() async throws {
        let pair = try await Pair.make(options: SyncOptions(attachments: .eager(maxBytes: 1_000_000), attachmentCacheBytes: 25_000))
        let images = try await pair.photos(3, bytes: 10_000)
        let (b, syncB) = (pair.b, pair.syncB)
        #expect(try await pair.states(images, on: b).filter { $0 == .local }.count == 2)
        #expect(await MainActor.run { syncB.status.attachmentsNotFetched } == 0)
        _ = try await syncB.synchronize()
        #expect(try await pair.states(images, on: b).filter { $0 == .local }.count == 2, "a second round evicts nothing")

        let left = try #require(try await pair.states(images, on: b).firstIndex(of: .missing))
        try await syncB.attachments.fetch(images[left])
        #expect(try await pair.states(images, on: b).filter { $0 == .local }.count == 2)
        #expect(try await b.attachments.state(of: images[left]) == .local)
        await pair.close()
    }

    @Test func aNegativeBudgetIsRefused() async throws {
        let b = try await AttachmentSyncHTTPTests.device()
        let server = try await HTTPTestServer()
        await #expect(throws: BoutiqueError.invalidArgument("SyncOptions.attachmentCacheBytes is a byte count, 0 or more, not -1")) {
            _ = try await BoutiqueSync(
                database: b, tables: [SyncPhoto.self], server: try server.transport(), options: SyncOptions(attachmentCacheBytes: -1))
        }
        await b.close()
        await server.stop()
    }
}
#endif
