// These run `boutique serve`, which needs the HTTP front end: they are compiled where the package has it.
#if BOUTIQUE_SYNC_HTTP
import BoutiqueTestSupport
import Foundation
import Testing

/// `boutique serve --retain` removes the bytes no row has pointed at for the retention period, as real
/// processes on 127.0.0.1, on the SQLite store (bytes in its folder) and on PostgreSQL (bytes in the
/// database): the photo of a deleted row goes, the photo a row points at stays, and bytes no row was
/// seen pointing at stay.
@Suite(.serialized) struct AttachmentGarbageProcessTests {
    @Test func housekeepingRemovesBytesNoRowPointsAtOnTheSQLiteStore() async throws {
        try await Self.run(postgres: nil)
    }

    @Test func housekeepingRemovesBytesNoRowPointsAtOnThePostgreSQLStore() async throws {
        try await PostgreSQLTestDatabase.withFresh { database in try await Self.run(postgres: database) }
    }

    static func run(postgres: String?) async throws {
        typealias HTTP = AttachmentSyncProcessTests
        let workspace = try SyncWorkspace()
        let tenant = "gc-\(UUID().uuidString.prefix(8))"
        // A round every second, keeping two seconds.
        let (server, url) = try await workspace.serve(postgres: postgres, flags: ["--retain", "2", "--housekeeping-interval", "1"])
        let token = try await workspace.token(tenant: tenant, user: "ana")
        func isUploaded(_ id: String, size: Int) async throws -> Bool {
            HTTP.reason(try await HTTP.request(url, "/v1/attachments/\(id)?size=\(size)", token: token)).contains(#""isUploaded":true"#)
        }

        let photo = [UInt8]((0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 11) })
        try Data(photo).write(to: workspace.directory.file("photo.bin"))
        try await workspace.tool(["sql", "ana.db", HTTP.photoSchema, "--create"])
        let photoID = try await workspace.tool(["attachments", "put", "ana.db", "photo.bin"]).trimmingCharacters(in: .whitespacesAndNewlines)
        try await workspace.tool(["sql", "ana.db", "INSERT INTO photo VALUES ('p1', 'Kept', '\(HTTP.attachmentJSON(id: photoID, byteCount: photo.count))')"])
        try await workspace.tool(["sync", "ana.db", "--server", url, "--token", token, "--tables", "photo"])

        // A second photo whose row is then deleted: its bytes go once the row let go of them.
        let gone = [UInt8](repeating: 5, count: 7_000)
        try Data(gone).write(to: workspace.directory.file("gone.bin"))
        let goneID = try await workspace.tool(["attachments", "put", "ana.db", "gone.bin"]).trimmingCharacters(in: .whitespacesAndNewlines)
        try await workspace.tool(["sql", "ana.db", "INSERT INTO photo VALUES ('p2', 'Gone', '\(HTTP.attachmentJSON(id: goneID, byteCount: gone.count))')"])
        try await workspace.tool(["sync", "ana.db", "--server", url, "--token", token, "--tables", "photo"])
        #expect(try await isUploaded(goneID, size: gone.count))
        // Bytes uploaded that no row was ever recorded pointing at: kept, since a row may point at them unseen.
        let orphan = [UInt8](repeating: 6, count: 3_000)
        let orphanID = try HTTP.id(of: orphan)
        let put = try await HTTP.request(url, "/v1/attachments/\(orphanID)?size=\(orphan.count)&offset=0", method: "PUT", token: token, body: orphan)
        #expect(HTTP.reason(put).contains(#""isUploaded":true"#), "\(HTTP.reason(put))")
        try await workspace.tool(["sql", "ana.db", "DELETE FROM photo WHERE id = 'p2'"])
        try await workspace.tool(["sync", "ana.db", "--server", url, "--token", token, "--tables", "photo"])

        try await waitUntil(seconds: 60, "the bytes no row points at any more are removed") { try await !isUploaded(goneID, size: gone.count) }
        #expect(try await isUploaded(photoID, size: photo.count), "the photo a row points at stays")
        #expect(try await isUploaded(orphanID, size: orphan.count), "bytes no row was seen pointing at stay")
        #expect(try await HTTP.request(url, "/v1/attachments/\(photoID)/bytes?offset=0&length=100000", token: token).body == photo)
        if postgres == nil {
            let folder = try HTTP.tenantFolder(workspace, tenant: tenant)
            #expect(HTTP.files(in: folder) == [photoID, orphanID].sorted())
        }

        server.send(SIGTERM)
        let exit = await server.wait(timeout: .seconds(20))
        #expect(exit.status == 0 && !exit.signalled)
    }
}
#endif
