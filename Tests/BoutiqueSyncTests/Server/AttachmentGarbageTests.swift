import BoutiqueSync
import BoutiqueSyncServer
import BoutiqueTestSupport
import Foundation
import Testing

/// Garbage collection of attachments' bytes, on the SQLite store with its folder and on PostgreSQL
/// with its bytes in the database: what a row let go of more than the retention period ago goes, and
/// nothing else — not bytes a row points at, not bytes a row let go of within the period, not an upload
/// that moved within it, not bytes no row was recorded pointing at, not bytes the server knows nothing of.
@Suite struct AttachmentGarbageTests {
    enum Kind: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case sqlite, postgreSQL
        var testDescription: String { rawValue }
    }

    /// Runs `body` with a sync store and the attachment store that goes with it.
    static func withStores(_ kind: Kind, test: String = #function, _ body: (any SyncStore, any SyncAttachmentStore) async throws -> Void) async throws {
        switch kind {
        case .sqlite:
            let directory = try SyncTemporaryDirectory()
            let store = try await SQLiteSyncStore.open(url: BoutiqueDB.inMemoryURL())
            try await body(store, try FolderAttachmentStore(directory: directory.url))
            await store.close()
            withExtendedLifetime(directory) {}
        case .postgreSQL:
            try await PostgreSQLTestDatabase.withFresh(test: test) { url in
                let store = try await PostgreSQLSyncStore.open(url: url)
                do {
                    try await body(store, try PostgreSQLAttachmentStore(store: store))
                } catch {
                    await store.close()
                    throw error
                }
                await store.close()
            }
        }
    }

    static func id(of bytes: [UInt8]) throws -> String { SHA256Hasher.hex(try #require(SHA256Hasher.digest(of: bytes))) }

    @Test(arguments: Kind.allCases)
    func bytesNoRowPointedAtForTheRetentionGoAndNothingElse(_ kind: Kind) async throws {
        try await Self.withStores(kind) { store, bytes in
            // The server's clock runs with the real one, which the stores' own times (a file's, a
            // piece's) follow, moved ahead by the test: moving it from a start taken before setting up
            // let the stores' times pass the cutoff when a loaded machine took long to set up.
            let ahead = Lock<UInt64>(0)
            let server = SyncServer(
                store: store, maximumClockSkewMilliseconds: 3_600_000,
                wallClock: { UInt64(Date().timeIntervalSince1970 * 1000) + ahead.withLock { $0 } })
            let retention: UInt64 = 600_000
            let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncStoreContractTests.photoPlan)
            let sync = try await BoutiqueSync(database: database, tables: [PhotoList.self, ListedPhoto.self], server: .inProcess(server, user: "ana"))
            let tenant = "default"

            // Six attachments' bytes on the server, each whole but the upload in progress.
            var ids: [String: String] = [:]
            for (index, name) in ["kept", "released", "recent", "orphan", "partial", "unknown"].enumerated() {
                let content = [UInt8](repeating: UInt8(index + 1), count: 1_000)
                let id = try Self.id(of: content)
                ids[name] = id
                let piece = name == "partial" ? Array(content.prefix(400)) : content
                _ = try await bytes.append(piece, to: id, byteCount: 1_000, at: 0, tenant: tenant, uploader: "ana")
            }
            let named = ids
            // Uploaded by a user (as the HTTP front end notes): one never pointed at by a row, one a row
            // lets go of below.
            try await server.noteUpload(of: ids["orphan"]!, by: "ana", tenant: tenant)
            try await server.noteUpload(of: ids["released"]!, by: "ana", tenant: tenant)
            // Rows point at three; two let go of theirs, one now, one later.
            try await database.write { conn in
                try conn.execute("INSERT INTO remindersList VALUES ('L1', 'Photos')")
                for (key, name) in [("p1", "kept"), ("p2", "released"), ("p3", "recent")] {
                    let json = #"{"byteCount":1000,"contentType":"image/png","id":"\#(named[name]!)"}"#
                    try conn.execute("INSERT INTO photo VALUES (?, 'L1', ?)", [.text(key), .text(json)])
                }
            }
            _ = try await sync.synchronize()
            try await database.write { conn in try conn.execute("DELETE FROM photo WHERE id = 'p2'") }
            _ = try await sync.synchronize()

            // Within the retention nothing goes: the bytes changed just now.
            #expect(try await server.collectAttachments(tenant: tenant, in: bytes, retentionMilliseconds: retention) == (0, 0))

            // Two periods later, the third row lets go of its attachment.
            ahead.withLock { $0 = 2 * retention }
            try await database.write { conn in try conn.execute("DELETE FROM photo WHERE id = 'p3'") }
            _ = try await sync.synchronize()
            let collected = try await server.collectAttachments(tenant: tenant, in: bytes, retentionMilliseconds: retention)
            #expect(collected == (2, 1_400), "released and the stale upload: \(collected)")
            func isHeld(_ name: String) async throws -> Bool {
                try await bytes.state(of: named[name]!, byteCount: 1_000, tenant: tenant, uploader: "ana").offset > 0
            }
            // Bytes no row was ever recorded pointing at stay: a row may point at them unseen.
            for name in ["kept", "recent", "orphan", "unknown"] { #expect(try await isHeld(name), "\(name) stays") }
            for name in ["released", "partial"] { #expect(try await !isHeld(name), "\(name) went") }
            #expect(try await server.mayRead(attachment: ids["released"]!, user: "ana", tenant: tenant) == false, "its uploader is forgotten with it")
            #expect(try await server.mayRead(attachment: ids["orphan"]!, user: "ana", tenant: tenant), "the kept one's uploader still reads it")

            // A period after the third row let go, its bytes go too; the pointed-at ones never.
            ahead.withLock { $0 = 4 * retention }
            #expect(try await server.collectAttachments(tenant: tenant, in: bytes, retentionMilliseconds: retention) == (1, 1_000))
            for name in ["kept", "orphan", "unknown"] { #expect(try await isHeld(name), "\(name) stays") }
            await database.close()
        }
    }

    /// Collection judges bytes unwanted, then removes them: a row pushed in between, whose device was
    /// told the bytes are uploaded, keeps them. The folder store asks once the bytes are out of sight;
    /// PostgreSQL asks in the transaction that removes them.
    @Test(arguments: Kind.allCases)
    func bytesARowCameToPointAtWhileTheyWereCollectedStay(_ kind: Kind) async throws {
        try await Self.withStores(kind) { store, bytes in
            let server = SyncServer(store: store)
            let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncStoreContractTests.photoPlan)
            let sync = try await BoutiqueSync(database: database, tables: [PhotoList.self, ListedPhoto.self], server: .inProcess(server, user: "ana"))
            let tenant = "default"
            let content = [UInt8](repeating: 7, count: 1_000)
            let id = try Self.id(of: content)
            _ = try await bytes.append(content, to: id, byteCount: 1_000, at: 0, tenant: tenant, uploader: "ana")
            try await database.write { conn in
                try conn.execute("INSERT INTO remindersList VALUES ('L1', 'Photos')")
                try conn.execute("INSERT INTO photo VALUES ('p1', 'L1', ?)", [.text(#"{"byteCount":1000,"contentType":"image/png","id":"\#(id)"}"#)])
            }
            _ = try await sync.synchronize()
            @Sendable func isPointedAt() async throws -> Bool {
                try await store.read(tenant: tenant) { store in try store.attachmentStanding(id).isPointedAt }
            }
            let asked = Lock<[AttachmentUploadState]>([])
            let removed = try await bytes.remove(id, tenant: tenant, unchangedBefore: .max) {
                // Out of sight meanwhile: a device asking now is told to upload them again.
                let state = try await bytes.state(of: id, byteCount: 1_000, tenant: tenant, uploader: "bob")
                asked.withLock { $0.append(state) }
                return try await isPointedAt()
            }
            #expect(removed == 0)
            #expect(try await bytes.read(id, offset: 0, length: 1_000, tenant: tenant).bytes == content)
            #expect(try await bytes.state(of: id, byteCount: 1_000, tenant: tenant, uploader: "bob").isUploaded)
            if kind == .sqlite {
                #expect(asked.withLock { $0 } == [AttachmentUploadState(id: id, byteCount: 1_000, offset: 0, isUploaded: false)])
            }

            // The row lets go: the bytes go.
            try await database.write { conn in try conn.execute("DELETE FROM photo WHERE id = 'p1'") }
            _ = try await sync.synchronize()
            #expect(try await bytes.remove(id, tenant: tenant, unchangedBefore: .max) { try await isPointedAt() } == 1_000)
            let gone = await #expect(throws: AttachmentRefusal.self) { try await bytes.read(id, offset: 0, length: 1, tenant: tenant) }
            #expect(gone?.kind == .notFound)
            await database.close()
        }
    }
}
