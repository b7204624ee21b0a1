// These run `boutique serve`, which needs the HTTP front end: they are compiled where the package has it.
#if BOUTIQUE_SYNC_HTTP
import BoutiqueTestSupport
import Foundation
import Testing

/// Who reads an attachment's bytes, as real processes on 127.0.0.1: `boutique serve --rules`, users'
/// device files synced with `boutique sync`, shared with `boutique share` and `unshare`, bytes fetched
/// with `boutique attachments get` and asked for over HTTP with each user's token.
@Suite(.serialized) struct AttachmentRightsProcessTests {
    static let schema = """
        CREATE TABLE remindersList(id TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL DEFAULT '');
        CREATE TABLE photo(id TEXT PRIMARY KEY NOT NULL, listID TEXT NOT NULL REFERENCES remindersList(id) ON DELETE CASCADE,
            image TEXT NOT NULL)
        """
    static let tables = "remindersList,photo"

    @Test func aViewerFetchesTheListsPhotosANonMemberGets404AndUnshareTakesTheBytesOffOnTheSQLiteStore() async throws {
        try await Self.run(postgres: nil)
    }

    @Test func aViewerFetchesTheListsPhotosANonMemberGets404AndUnshareTakesTheBytesOffOnThePostgreSQLStore() async throws {
        try await PostgreSQLTestDatabase.withFresh { database in try await Self.run(postgres: database) }
    }

    static func run(postgres: String?) async throws {
        typealias HTTP = AttachmentSyncProcessTests
        let workspace = try SyncWorkspace()
        try Data(#"{"roots": ["remindersList"], "follows": {"photo": "listID"}}"#.utf8).write(to: workspace.directory.file("rules.json"))
        let tenant = "photos-\(UUID().uuidString.prefix(8))"
        // A PostgreSQL store keeps the bytes in its database.
        let (server, url) = try await workspace.serve(postgres: postgres, rules: "rules.json")
        var tokens: [String: String] = [:]
        for user in ["ana", "bob", "dan"] {
            tokens[user] = try await workspace.token(tenant: tenant, user: user)
            try await workspace.tool(["sql", "\(user).db", schema, "--create"])
        }
        func sync(_ user: String) async throws {
            try await workspace.tool(["sync", "\(user).db", "--server", url, "--token", tokens[user]!, "--tables", tables])
        }
        func bytes(_ id: String, as user: String) async throws -> (status: Int, body: [UInt8]) {
            try await HTTP.request(url, "/v1/attachments/\(id)/bytes?offset=0&length=100000", token: tokens[user]!)
        }
        func state(_ id: String, size: Int, as user: String) async throws -> String {
            HTTP.reason(try await HTTP.request(url, "/v1/attachments/\(id)?size=\(size)", token: tokens[user]!))
        }
        func localCopy(_ user: String, _ id: String) -> Bool {
            FileManager.default.fileExists(atPath: workspace.directory.file("\(user).db.attachments").appendingPathComponent(id).path)
        }

        // Ana's list with a photo, and a photo of her own list that she shares with nobody.
        let shared = [UInt8]((0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let own = [UInt8]((0..<30_000).map { UInt8(truncatingIfNeeded: $0 &* 13) })
        try Data(shared).write(to: workspace.directory.file("shared.bin"))
        try Data(own).write(to: workspace.directory.file("own.bin"))
        let sharedID = try await workspace.tool(["attachments", "put", "ana.db", "shared.bin"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let ownID = try await workspace.tool(["attachments", "put", "ana.db", "own.bin"]).trimmingCharacters(in: .whitespacesAndNewlines)
        try await workspace.tool(["sql", "ana.db", """
            INSERT INTO remindersList VALUES ('L1', 'Holiday'), ('L2', 'Ana only');
            INSERT INTO photo VALUES ('p1', 'L1', '\(HTTP.attachmentJSON(id: sharedID, byteCount: shared.count))'),
                ('p2', 'L2', '\(HTTP.attachmentJSON(id: ownID, byteCount: own.count))')
            """])
        try await sync("ana")
        #expect(try await bytes(sharedID, as: "ana").body == shared, "the uploader reads her bytes")

        // Before sharing, Bob has the hash and nothing else: 404, and a state that says nothing is held.
        #expect(try await bytes(sharedID, as: "bob").status == 404)
        #expect(try await state(sharedID, size: shared.count, as: "bob").contains(#""isUploaded":false"#))

        // Shared with Bob as a viewer: his device gets the row and fetches the photo.
        let share = try await workspace.attempt(
            ["share", "--server", url, "--token", tokens["ana"]!, "--table", "remindersList", "--key", "L1", "--with", "bob", "--role", "viewer"])
        #expect(share.status == 0, "\(share.errors)")
        try await sync("bob")
        let fetched = try await workspace.attempt(
            ["attachments", "get", "bob.db", sharedID, "--out", "bob-shared.bin", "--server", url, "--token", tokens["bob"]!])
        #expect(fetched.status == 0, "\(fetched.errors)")
        #expect(try Data(contentsOf: workspace.directory.file("bob-shared.bin")) == Data(shared))
        #expect(localCopy("bob", sharedID))
        // Ana's own list's photo stays hers, though Bob knows its hash.
        #expect(try await bytes(ownID, as: "bob").status == 404)

        // Dan, in the tenant but in no list, gets 404 for both, as for a hash the server never saw.
        let neverSeen = String(repeating: "ab", count: 32)
        #expect(try await bytes(neverSeen, as: "dan").status == 404)
        #expect(try await bytes(sharedID, as: "dan").status == 404)
        #expect(try await bytes(ownID, as: "dan").status == 404)
        // An id and a size (what a row shows) do not make the bytes his: other bytes under the id are
        // refused as for any upload, and the real ones, sent whole, make him an uploader.
        let forged = try await HTTP.request(
            url, "/v1/attachments/\(ownID)?size=\(own.count)&offset=0", method: "PUT", token: tokens["dan"]!, body: shared.prefix(own.count).map { $0 })
        #expect(forged.status == 400 && HTTP.reason(forged).contains("SHA-256"), "\(HTTP.reason(forged))")
        #expect(try await bytes(ownID, as: "dan").status == 404)
        let proven = try await HTTP.request(url, "/v1/attachments/\(ownID)?size=\(own.count)&offset=0", method: "PUT", token: tokens["dan"]!, body: own)
        #expect(HTTP.reason(proven).contains(#""isUploaded":true"#), "\(HTTP.reason(proven))")
        #expect(try await bytes(ownID, as: "dan").body == own)

        // An upload in progress is its uploader's own: Dan neither sees where Ana's stands nor
        // finishes it by sending its end, which would make the whole his.
        let third = [UInt8]((0..<40_000).map { UInt8(truncatingIfNeeded: $0 &* 29 &+ 3) })
        let thirdID = try HTTP.id(of: third)
        func put(_ range: Range<Int>, as user: String) async throws -> (status: Int, body: [UInt8]) {
            try await HTTP.request(
                url, "/v1/attachments/\(thirdID)?size=\(third.count)&offset=\(range.lowerBound)", method: "PUT", token: tokens[user]!,
                body: Array(third[range]))
        }
        let half = try await put(0..<20_000, as: "ana")
        #expect(half.status == 200 && HTTP.reason(half).contains(#""offset":20000"#), "\(HTTP.reason(half))")
        #expect(try await state(thirdID, size: third.count, as: "dan").contains(#""offset":0"#))
        let tail = try await put(20_000..<third.count, as: "dan")
        #expect(tail.status == 409, "\(HTTP.reason(tail))")
        #expect(try await bytes(thirdID, as: "dan").status == 404)
        #expect(try await state(thirdID, size: third.count, as: "ana").contains(#""offset":20000"#))
        #expect(try await put(20_000..<third.count, as: "ana").status == 200)
        #expect(try await bytes(thirdID, as: "ana").body == third)

        // A reader's empty piece of bytes held whole is answered as uploaded, and makes him no uploader:
        // his rights end with the list's below.
        let empty = try await HTTP.request(
            url, "/v1/attachments/\(sharedID)?size=\(shared.count)&offset=0", method: "PUT", token: tokens["bob"]!, body: [])
        #expect(empty.status == 200 && HTTP.reason(empty).contains(#""isUploaded":true"#), "\(HTTP.reason(empty))")

        // Unshared: Bob's device deletes the list's rows and the photo's bytes; the server answers 404.
        let unshare = try await workspace.attempt(
            ["unshare", "--server", url, "--token", tokens["ana"]!, "--table", "remindersList", "--key", "L1", "--with", "bob"])
        #expect(unshare.status == 0, "\(unshare.errors)")
        #expect(try await bytes(sharedID, as: "bob").status == 404)
        try await sync("bob")
        #expect(!localCopy("bob", sharedID), "the bytes left with the space's rows")
        let refetched = try await workspace.attempt(
            ["attachments", "get", "bob.db", sharedID, "--out", "bob-again.bin", "--server", url, "--token", tokens["bob"]!])
        #expect(refetched.status != 0)
        // Ana keeps hers.
        try await sync("ana")
        #expect(localCopy("ana", sharedID) && localCopy("ana", ownID))
        #expect(try await bytes(sharedID, as: "ana").body == shared)

        server.send(SIGTERM)
        let exit = await server.wait(timeout: .seconds(20))
        #expect(exit.status == 0 && !exit.signalled)
    }
}
#endif
