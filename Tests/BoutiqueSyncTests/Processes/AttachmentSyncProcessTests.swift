// These run `boutique serve`, which needs the HTTP front end: they are compiled where the package has it.
#if BOUTIQUE_SYNC_HTTP
import BoutiqueDB
import BoutiqueSync
@testable import BoutiqueSyncServer
import BoutiqueTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Attachments through `boutique serve` and `boutique sync` / `boutique attachments` devices, as child
/// processes on 127.0.0.1: bad input refused with a reason and nothing stored, and a large upload
/// resumed after `kill -9` of the device and of the server, then fetched by another device.
@Suite(.serialized) struct AttachmentSyncProcessTests {
    /// One request to the server, `path` with its query as given.
    static func request(
        _ url: String, _ path: String, method: String = "GET", token: String, body: [UInt8]? = nil
    ) async throws -> (status: Int, body: [UInt8]) {
        var request = URLRequest(url: try #require(URL(string: url + path)))
        request.httpMethod = method
        request.httpBody = body.map { Data($0) }
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.timeoutInterval = RawHTTP.hangTimeout
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, Array(data))
    }

    static func id(of bytes: [UInt8]) throws -> String { SHA256Hasher.hex(try #require(SHA256Hasher.digest(of: bytes))) }

    /// The folder `boutique serve --store server.db` keeps `tenant`'s attachments in.
    static func tenantFolder(_ workspace: SyncWorkspace, tenant: String = "acme") throws -> URL {
        let name = SHA256Hasher.hex(try #require(SHA256Hasher.digest(of: Array(tenant.utf8))))
        return workspace.directory.file("server.db.attachments").appendingPathComponent(name)
    }

    static func files(in folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    static func reason(_ answer: (status: Int, body: [UInt8])) -> String { String(decoding: answer.body, as: UTF8.self) }

    @Test func badInputIsRefusedWithAReasonNothingIsStoredAndTheServerKeepsServing() async throws {
        let workspace = try SyncWorkspace()
        let (server, url) = try await workspace.serve(flags: ["--max-attachment-bytes", "1000000", "--attachment-quota", "1500000"])
        let token = try await workspace.token()
        let folder = try Self.tenantFolder(workspace)
        let hello = Array("hello".utf8)
        let helloID = try Self.id(of: hello)

        // A good upload in one piece, then read back by ranges.
        let stored = try await Self.request(url, "/v1/attachments/\(helloID)?size=5&offset=0", method: "PUT", token: token, body: hello)
        #expect(stored.status == 200 && Self.reason(stored).contains(#""isUploaded":true"#), "\(Self.reason(stored))")
        #expect(try await Self.request(url, "/v1/attachments/\(helloID)/bytes?offset=1&length=3", token: token).body == Array("ell".utf8))
        #expect(Self.files(in: folder) == [helloID])

        // Bytes whose SHA-256 is not the id: refused once whole, and nothing kept.
        let otherID = try Self.id(of: Array("world".utf8))
        let wrongHash = try await Self.request(url, "/v1/attachments/\(otherID)?size=5&offset=0", method: "PUT", token: token, body: hello)
        #expect(wrongHash.status == 400 && Self.reason(wrongHash).contains("SHA-256"), "\(Self.reason(wrongHash))")
        #expect(try await Self.request(url, "/v1/attachments/\(otherID)/bytes?offset=0&length=5", token: token).status == 404)

        // A body longer than announced.
        let longer = try await Self.request(url, "/v1/attachments/\(otherID)?size=3&offset=0", method: "PUT", token: token, body: hello)
        #expect(longer.status == 400 && Self.reason(longer).contains("runs past the 3 bytes announced"), "\(Self.reason(longer))")

        // A range past the end.
        let pastEnd = try await Self.request(url, "/v1/attachments/\(helloID)/bytes?offset=5&length=1", token: token)
        #expect(pastEnd.status == 416 && Self.reason(pastEnd).contains("past the end"), "\(Self.reason(pastEnd))")

        // Ids that are not ids: a path, and 64 characters that are not lowercase hex.
        for notAnID in ["..%2F..%2Fetc%2Fpasswd", String(repeating: "g", count: 64), helloID.uppercased()] {
            let refused = try await Self.request(url, "/v1/attachments/\(notAnID)?size=5&offset=0", method: "PUT", token: token, body: hello)
            #expect(refused.status == 400 && Self.reason(refused).contains("not an attachment id"), "\(notAnID): \(Self.reason(refused))")
        }

        // Larger than the server takes, then past the tenant's quota.
        let tooLarge = try await Self.request(url, "/v1/attachments/\(otherID)?size=2000000&offset=0", method: "PUT", token: token, body: hello)
        #expect(tooLarge.status == 413 && Self.reason(tooLarge).contains("at most 1000000"), "\(Self.reason(tooLarge))")
        let first = [UInt8](repeating: 1, count: 900_000), second = [UInt8](repeating: 2, count: 900_000)
        let firstID = try Self.id(of: first), secondID = try Self.id(of: second)
        #expect(try await Self.request(url, "/v1/attachments/\(firstID)?size=900000&offset=0", method: "PUT", token: token, body: first).status == 200)
        let overQuota = try await Self.request(url, "/v1/attachments/\(secondID)?size=900000&offset=0", method: "PUT", token: token, body: second)
        #expect(overQuota.status == 413 && Self.reason(overQuota).contains("quota of 1500000"), "\(Self.reason(overQuota))")

        // A piece at an offset the upload does not stand at.
        let misplaced = try await Self.request(url, "/v1/attachments/\(otherID)?size=5&offset=2", method: "PUT", token: token, body: [0x72])
        #expect(misplaced.status == 409 && Self.reason(misplaced).contains("stands at offset 0"), "\(Self.reason(misplaced))")

        // Nothing of the refused requests was kept.
        #expect(Self.files(in: folder) == [firstID, helloID].sorted())
        // Another tenant, even with the hash, finds nothing.
        let globex = try await workspace.token(tenant: "globex")
        #expect(try await Self.request(url, "/v1/attachments/\(helloID)/bytes?offset=0&length=5", token: globex).status == 404)
        let globexState = try await Self.request(url, "/v1/attachments/\(helloID)?size=5", token: globex)
        #expect(Self.reason(globexState).contains(#""isUploaded":false"#), "\(Self.reason(globexState))")
        // Without a token, nothing.
        #expect(try await Self.request(url, "/v1/attachments/\(helloID)/bytes?offset=0&length=5", token: "forged").status == 401)

        #expect(server.isRunning)
        #expect(try await Self.request(url, "/healthz", token: token).status == 200)
        #expect(try await Self.request(url, "/v1/attachments/\(helloID)/bytes?offset=0&length=5", token: token).body == hello)
        server.send(SIGTERM)
        #expect(await server.wait().status == 0)
    }

    static let photoSchema = "CREATE TABLE photo(id TEXT PRIMARY KEY NOT NULL, caption TEXT, image TEXT)"

    /// The JSON an `Attachment` column holds.
    static func attachmentJSON(id: String, byteCount: Int) -> String {
        #"{"byteCount":\#(byteCount),"contentType":"application/octet-stream","id":"\#(id)"}"#
    }

    @Test(arguments: [StoreKind.sqlite, .postgreSQL])
    func aLargeAttachmentSurvivesKillingTheDeviceAndTheServerAndReachesTheOtherDevice(_ kind: StoreKind) async throws {
        switch kind {
        case .postgreSQL:
            try await PostgreSQLTestDatabase.withFresh { url in try await Self.largeAttachmentSurvivesKills(postgres: url) }
        default:
            try await Self.largeAttachmentSurvivesKills(postgres: nil)
        }
    }

    /// A 192 MiB attachment (over 200 MB) uploaded through `kill -9` of the device a third of the way
    /// and of the server two thirds of the way, on the server's folder beside `server.db` or, with
    /// `postgres`, in that database; then fetched by another device, within a bounded memory.
    static func largeAttachmentSurvivesKills(postgres: String?) async throws {
        let workspace = try SyncWorkspace()
        // Under a sanitizer every byte's hash and copy costs many times more: an eighth of the size
        // still takes many pieces (4 MiB each), and thirds of it still fall on a piece's edge.
        let size = TestBudget.isSanitized ? 24 << 20 : 192 << 20
        let made = try await ChildProcess.run(
            executable: URL(fileURLWithPath: "/bin/sh"), ["-c", "head -c \(size) /dev/urandom > big.bin"], in: workspace.url)
        try #require(made.status == 0)
        var (server, serverURL) = try await workspace.serve(postgres: postgres)
        let port = try #require(URL(string: serverURL)?.port)
        let token = try await workspace.token()

        try await workspace.tool(["sql", "a.db", Self.photoSchema, "--create"])
        try await workspace.tool(["sql", "b.db", Self.photoSchema, "--create"])
        let id = try await workspace.tool(["attachments", "put", "a.db", "big.bin"]).trimmingCharacters(in: .whitespacesAndNewlines)
        try await workspace.tool(["sql", "a.db", "INSERT INTO photo VALUES ('p1', 'Big', '\(Self.attachmentJSON(id: id, byteCount: size))')"])
        // Where the upload stands on the server: in the folder, its resume file (`.resume-ID-SIZE-` and
        // the uploader's name, hashed); in PostgreSQL, the bytes its upload row holds.
        let folder = try Self.tenantFolder(workspace)
        func resumes() -> [URL] {
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
                .filter { $0.hasPrefix(".resume-\(id)-\(size)-") }.map { folder.appendingPathComponent($0) }
        }
        func held() async throws -> Int {
            guard let postgres else {
                return resumes().map { ((try? FileManager.default.attributesOfItem(atPath: $0.path))?[.size] as? NSNumber)?.intValue ?? 0 }
                    .reduce(0, +)
            }
            return Int(try await PostgreSQLTestDatabase.integers(
                "SELECT coalesce(sum(held), 0)::bigint FROM boutique_sync_server_attachment_upload WHERE attachment = $1 AND NOT uploaded", [.text(id)],
                on: postgres).first ?? 0)
        }
        /// Whether the server holds the attachment whole, checked.
        func storedWhole() async throws -> Bool {
            guard let postgres else {
                return try Self.id(of: Array(try Data(contentsOf: folder.appendingPathComponent(id)))) == id && resumes().isEmpty
            }
            let uploads = try await PostgreSQLTestDatabase.integers(
                "SELECT CASE WHEN uploaded THEN held ELSE -1 END FROM boutique_sync_server_attachment_upload WHERE attachment = $1", [.text(id)],
                on: postgres)
            return uploads == [Int64(size)]
        }
        func sync(through relay: HoldingRelay) -> [String] {
            ["sync", "a.db", "--server", "http://127.0.0.1:\(relay.port)", "--token", token, "--tables", "photo"]
        }
        // Each run reaches the server through a relay that holds the piece starting at `offset`, so
        // the upload stops there however fast it goes and however late this test looks (a loaded
        // machine's test once looked only after the whole file had gone); the relays count what the
        // device sends.
        func relay(holdingPieceAt offset: Int) throws -> HoldingRelay {
            try HoldingRelay(forwardingTo: port, holding: "size=\(size)&offset=\(offset) ", occurrence: 1)
        }
        let third = size / 3, twoThirds = 2 * size / 3
        #expect(third % AttachmentTransfer.pieceBytes == 0 && twoThirds % AttachmentTransfer.pieceBytes == 0)

        // The device killed a third of the way.
        let firstRelay = try relay(holdingPieceAt: third)
        defer { firstRelay.stop() }
        let first = try workspace.start(sync(through: firstRelay))
        try await waitUntil(seconds: 120, "a third is uploaded") { try await held() >= third || !first.isRunning }
        first.send(SIGKILL)
        let firstExit = await first.wait()
        let afterDeviceKill = try await held()
        #expect(afterDeviceKill == third, "\(afterDeviceKill) bytes held; the device said: \(firstExit.output) \(firstExit.errors)")

        // The server killed two thirds of the way; the device, left without it, gives up.
        let secondRelay = try relay(holdingPieceAt: twoThirds)
        defer { secondRelay.stop() }
        let second = try workspace.start(sync(through: secondRelay))
        try await waitUntil(seconds: 120, "two thirds are uploaded") { try await held() >= twoThirds || !second.isRunning }
        server.send(SIGKILL)
        _ = await server.wait()
        secondRelay.dropHeld()
        let afterServerKill = try await held()
        #expect(afterServerKill == twoThirds, "\(afterServerKill)")
        let gaveUp = await second.wait(timeout: .seconds(120))
        #expect(!gaveUp.signalled && gaveUp.status != 0, "\(gaveUp.output) \(gaveUp.errors)")

        // Both back: the rest goes, from where the server stands.
        // On a port of its own: another test's server may have been given the old one meanwhile.
        (server, serverURL) = try await workspace.serve(postgres: postgres)
        let relay = try HoldingRelay(forwardingTo: try #require(URL(string: serverURL)?.port))
        defer { relay.stop() }
        let url = "http://127.0.0.1:\(relay.port)"
        let finished = try await workspace.tool(sync(through: relay))
        #expect(finished.contains("uploaded 1 attachment"), "\(finished)")
        #expect(try await storedWhole())

        // The other device gets the row, then the bytes on demand.
        try await workspace.tool(["sync", "b.db", "--server", url, "--token", token, "--tables", "photo"])
        let listed = try await workspace.tool(["attachments", "list", "b.db"])
        #expect(listed.contains("\(id) \(size) application/octet-stream missing"), "\(listed)")
        // What the tool takes to list the file is the baseline: fetching holds a few ranges more, not the file.
        let baseline = try await workspace.attempt(["attachments", "list", "b.db"], measuringPeakMemory: true)
        let fetch = try await workspace.attempt(
            ["attachments", "get", "b.db", id, "--out", "copy.bin", "--server", url, "--token", token], measuringPeakMemory: true)
        #expect(fetch.status == 0 && fetch.output.contains("fetched \(size) bytes"), "\(fetch.output) \(fetch.errors)")
        // A debug build's fetch peaked 34 MiB over the listing's 32 on a quiet machine, and up to 62 MiB
        // over it on a loaded one (the listing exits quickly, so its peak is sometimes read early, and
        // glibc keeps freed ranges of busy threads): a bound of 96 MiB, half the file, which holding it
        // would pass. Under a sanitizer allocations carry shadow memory and are freed late: a fixed
        // 216 MiB, which only catches memory gone wild; the streaming itself is the unsanitized run's
        // to check.
        let bound = TestBudget.isSanitized ? 216 << 20 : 96 << 20
        #expect(baseline.peakResidentBytes > 0 && fetch.peakResidentBytes - baseline.peakResidentBytes < bound,
                "fetching \(size >> 20) MiB peaked at \(fetch.peakResidentBytes >> 20) MiB, listing at \(baseline.peakResidentBytes >> 20) MiB")
        #expect(try Data(contentsOf: workspace.directory.file("copy.bin")) == (try Data(contentsOf: workspace.directory.file("big.bin"))))
        #expect(try await workspace.tool(["attachments", "list", "b.db"]).contains("\(id) \(size) application/octet-stream local"))

        // Every byte sent once, but for the two held pieces (4 MiB each); the rows, heads and the other
        // device's requests are the rest.
        let sent = firstRelay.bytesFromClients + secondRelay.bytesFromClients + relay.bytesFromClients
        #expect(sent >= size && Double(sent) <= 1.1 * Double(size), "sent \(sent) for \(size)")
        server.send(SIGTERM)
        #expect(await server.wait().status == 0)
    }

    @Test func anAttachmentTheServerRefusesIsNamedAndTheOthersStillGo() async throws {
        let workspace = try SyncWorkspace()
        let (server, url) = try await workspace.serve(flags: ["--max-attachment-bytes", "20"])
        let token = try await workspace.token()
        try await workspace.tool(["sql", "a.db", Self.photoSchema, "--create"])
        try await workspace.tool(["sql", "b.db", Self.photoSchema, "--create"])
        try Data("a photo far too large for this server".utf8).write(to: workspace.directory.file("large.jpg"))
        try Data("a small photo".utf8).write(to: workspace.directory.file("small.jpg"))
        var ids: [String] = []
        for name in ["large.jpg", "small.jpg"] {
            ids.append(try await workspace.tool(["attachments", "put", "a.db", name, "--type", "image/jpeg"])
                .trimmingCharacters(in: .whitespacesAndNewlines))
        }
        try await workspace.tool([
            "sql", "a.db",
            "INSERT INTO photo VALUES ('p1', 'Large', '\(Self.attachmentJSON(id: ids[0], byteCount: 37))'), "
                + "('p2', 'Small', '\(Self.attachmentJSON(id: ids[1], byteCount: 13))')",
        ])
        let pushed = try await workspace.tool(["sync", "a.db", "--server", url, "--token", token, "--tables", "photo"])
        #expect(pushed.contains("attachment \(ids[0]) refused by the server, kept in the file: ") && pushed.contains("at most 20"), "\(pushed)")
        #expect(pushed.contains("uploaded 1 attachment (13 bytes sent)"), "\(pushed)")
        let listed = try await workspace.tool(["attachments", "list", "a.db"])
        #expect(listed.split(separator: "\n").contains { $0.hasPrefix("\(ids[0]) 37 ") && $0.hasSuffix(" local") }, "kept: \(listed)")

        let eager = try await workspace.tool(["sync", "b.db", "--server", url, "--token", token, "--tables", "photo", "--attachments", "eager"])
        #expect(eager.contains("downloaded 1 attachment (13 bytes received)"), "\(eager)")
        #expect(eager.contains("attachment \(ids[0]) is not uploaded yet"), "\(eager)")
        server.send(SIGTERM)
        #expect(await server.wait().status == 0)
    }

    @Test func anEagerSyncDownloadsWhatItsRowsPointAtAndSaysWhatIsNotUploadedYet() async throws {
        let workspace = try SyncWorkspace()
        for flags in [["--max-attachment-bytes", "0"], ["--attachment-quota", "many"]] {
            let refused = try await workspace.attempt(["serve", "--port", "0", "--secret-file", "secret", "--store", "server.db"] + flags)
            #expect(refused.status == 2 && refused.errors.contains(flags[0]), "\(flags): \(refused.errors)")
        }
        let (server, url) = try await workspace.serve()
        let token = try await workspace.token()
        try await workspace.tool(["sql", "a.db", Self.photoSchema, "--create"])
        try await workspace.tool(["sql", "b.db", Self.photoSchema, "--create"])
        try Data("a small photo".utf8).write(to: workspace.directory.file("small.jpg"))
        let id = try await workspace.tool(["attachments", "put", "a.db", "small.jpg", "--type", "image/jpeg"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
        // A second row points at bytes no device has stored.
        let absent = try Self.id(of: Array("never stored".utf8))
        try await workspace.tool([
            "sql", "a.db",
            "INSERT INTO photo VALUES ('p1', 'Small', '{\"byteCount\":13,\"contentType\":\"image/jpeg\",\"id\":\"\(id)\"}'), "
                + "('p2', 'Absent', '\(Self.attachmentJSON(id: absent, byteCount: 12))')",
        ])
        let pushed = try await workspace.tool(["sync", "a.db", "--server", url, "--token", token, "--tables", "photo"])
        #expect(pushed.contains("uploaded 1 attachment (13 bytes sent)"), "\(pushed)")

        // The server's copy damaged on its disk: the device refuses bytes that are not the id's, names
        // the attachment, goes on, and exits 1 once its rows have synced.
        let stored = try Self.tenantFolder(workspace).appendingPathComponent(id)
        try Data("A SMALL PHOTO".utf8).write(to: stored)
        let spoilt = try await workspace.attempt(["sync", "b.db", "--server", url, "--token", token, "--tables", "photo", "--attachments", "eager"])
        #expect(spoilt.status == 1 && spoilt.errors.contains("1 attachment could not be fetched (named above)"), "\(spoilt.errors)")
        #expect(spoilt.output.contains("attachment \(id) could not be fetched: "), "\(spoilt.output)")
        #expect(spoilt.output.contains("attachment \(absent) is not uploaded yet") && !spoilt.output.contains("downloaded"), "\(spoilt.output)")
        #expect(try await workspace.tool(["sql", "b.db", "SELECT count(*) FROM photo"]).contains("2"))
        try Data("a small photo".utf8).write(to: stored)

        let eager = try await workspace.tool(["sync", "b.db", "--server", url, "--token", token, "--tables", "photo", "--attachments", "eager"])
        #expect(eager.contains("downloaded 1 attachment (13 bytes received)"), "\(eager)")
        #expect(eager.contains("attachment \(absent) is not uploaded yet"), "\(eager)")
        let listed = try await workspace.tool(["attachments", "list", "b.db"])
        #expect(listed.contains("\(id) 13 image/jpeg local") && listed.contains("\(absent) 12 application/octet-stream missing"), "\(listed)")
        let notUploaded = try await workspace.attempt(
            ["attachments", "get", "b.db", absent, "--out", "absent.bin", "--server", url, "--token", token])
        #expect(notUploaded.status != 0 && notUploaded.errors.contains("not reached the sync server yet"), "\(notUploaded.errors)")
        #expect(!FileManager.default.fileExists(atPath: workspace.directory.file("absent.bin").path))
        server.send(SIGTERM)
        #expect(await server.wait().status == 0)
    }
}
#endif
