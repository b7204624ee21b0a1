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
        let folder = try SyncTemporaryDirectory()
        let server = try await HTTPTestServer(attachments: try FolderAttachmentStore(directory: folder.url))
        let a = try await Self.device(), b = try await Self.device()
        let syncA = try await BoutiqueSync(database: a, tables: [SyncPhoto.self], server: try server.transport())
        let syncB = try await BoutiqueSync(
            database: b, tables: [SyncPhoto.self], server: try server.transport(), options: SyncOptions(attachments: .eager(maxBytes: 1_000)))
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
        await a.close()
        await b.close()
        await server.stop()
    }
}
#endif
