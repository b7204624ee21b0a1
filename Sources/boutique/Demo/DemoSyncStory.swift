import BoutiqueDB
import BoutiqueSync
import BoutiqueSyncServer
import Foundation

#if BOUTIQUE_SYNC_HTTP
import BoutiqueSyncHTTP
#endif

/// The demo's last part: a second device. A sync server runs in this process, on 127.0.0.1 over HTTP
/// (or, in a build without the HTTP front end, reached in-process), a second database file plays
/// another device, both edit the same note at once, and the merged note is shown on both: different
/// columns both kept, and the body, collaborative text, merged character by character. Then a photo
/// on the note: its row reaches the laptop at once, its bytes when the laptop asks for them.
@MainActor
struct DemoSyncStory {
    let db: BoutiqueDB
    /// The second device's file, made afresh for each run.
    let secondPath: String

    func run() async throws {
        #if BOUTIQUE_SYNC_HTTP
        var secret = [UInt8](repeating: 0, count: 32)
        for index in secret.indices { secret[index] = UInt8.random(in: 0...255) }
        let signer = try SyncTokenSigner(secret: secret)
        let expiry = Date().addingTimeInterval(3_600)
        let tokens = try ["phone", "laptop"].map { try signer.token(tenant: "demo", user: $0, expiresAt: expiry) }
        #endif
        let store = try await SQLiteSyncStore.open(url: BoutiqueDB.inMemoryURL())
        let server = SyncServer(store: store)
        #if BOUTIQUE_SYNC_HTTP
        // The photos' bytes, for this run only.
        let bytes = FileManager.default.temporaryDirectory.appendingPathComponent("boutique-demo-attachments-\(UUID().uuidString)")
        let http: SyncHTTPServer
        do {
            http = try SyncHTTPServer(server: server, signer: signer, port: 0, attachments: try FolderAttachmentStore(directory: bytes))
        } catch {
            await store.close()
            throw error
        }
        let devices: [any SyncTransport] = tokens.map { HTTPSyncTransport.http(http.url, token: $0) }
        let introduction = "a sync server on \(http.url.absoluteString)"
        #else
        // A tenant of its own each run, as over HTTP (where each run's server has a new port): the demo's
        // database, synced with the previous run's server, would otherwise take this new, empty one for it.
        let tenant = "demo-" + UUID().uuidString.prefix(8)
        let devices: [any SyncTransport] = [
            InProcessTransport.inProcess(server, tenant: tenant, user: "phone"),
            InProcessTransport.inProcess(server, tenant: tenant, user: "laptop"),
        ]
        let introduction =
            "a sync server reached in-process (this build has no HTTP front end: GNU libmicrohttpd is not installed)"
        #endif
        func stop() async {
            #if BOUTIQUE_SYNC_HTTP
            await http.shutdown()
            try? FileManager.default.removeItem(at: bytes)
            #endif
            await store.close()
        }
        do {
            let second = try await openSecondDevice()
            do {
                Output.line("\nA second device: \(introduction), and \(secondPath) as another device.")
                try await tell(phone: devices[0], laptop: devices[1], second: second)
            } catch {
                await second.close()
                throw error
            }
            await second.close()
        } catch {
            await stop()
            throw error
        }
        await stop()
    }

    private func openSecondDevice() async throws -> BoutiqueDB {
        for suffix in ["", "-wal", "-shm", ".attachments"] { try? FileManager.default.removeItem(atPath: secondPath + suffix) }
        return try await BoutiqueDB.open(url: URL(fileURLWithPath: secondPath), migrations: AppMigrations.plan)
    }

    /// The story, with the phone (this demo's database) and the laptop (`second`) reaching the server
    /// through their transports.
    private func tell(phone phoneServer: any SyncTransport, laptop laptopServer: any SyncTransport, second: BoutiqueDB) async throws {
        // The change log of this run stays whole for the listing above; an app leaves pruning on.
        let options = SyncOptions(prunesAcknowledgedChanges: false, collaborativeText: ["note.body"])
        let phone = try await BoutiqueSync(database: db, tables: [Note.self, NotePhoto.self], server: phoneServer, options: options)
        let laptop = try await BoutiqueSync(database: second, tables: [Note.self, NotePhoto.self], server: laptopServer, options: options)

        let trip = UUID()
        try await db.write { conn in
            try Note.insert { Note(id: trip, title: "Trip", body: "passport") }.execute(conn.connection)
        }
        _ = try await phone.synchronize()
        _ = try await laptop.synchronize()
        try await show("The phone wrote a note and synced; the laptop synced too", trip, on: second, name: "laptop")
        // Only the note travelled: the laptop's own triggers indexed it as sync wrote it.
        let found = try await second.read { conn in
            try NoteSearch.where { $0.match("passport") }.select { $0.title }.fetchAll(conn)
        }
        Output.line("The laptop's search for \"passport\" finds: \(found.joined(separator: ", "))")

        // Both edit the note before either syncs: different fields, then the same one.
        try await db.write { conn in
            try Note.update { $0.title = "Trip to Lisbon" }.where { $0.id == trip }.execute(conn.connection)
        }
        try await second.write { conn in
            try Note.update { $0.body = "passport, charger" }.where { $0.id == trip }.execute(conn.connection)
        }
        try await syncBoth(phone, laptop)
        Output.line("\nThe phone changed the title while the laptop changed the body; after syncing, both kept:")
        try await showBoth(trip, second: second)

        // Offline, both write the whole body: the phone adds a line at the top, the laptop fixes a word
        // at the end. The body is collaborative text: each write is diffed into character edits.
        try await db.write { conn in
            try Note.update { $0.body = "Lisbon, 3 days\npassport, charger" }.where { $0.id == trip }.execute(conn.connection)
        }
        try await second.write { conn in
            try Note.update { $0.body = "passport, phone charger" }.where { $0.id == trip }.execute(conn.connection)
        }
        try await syncBoth(phone, laptop)
        Output.line("""

            Offline, the phone added a line at the top of the body and the laptop fixed a word at its end.
            The body is collaborative text (SyncOptions(collaborativeText: ["note.body"])): after syncing,
            both edits are on both (⏎ marks a new line):
            """)
        try await showBoth(trip, second: second)
        try await attachPhoto(to: trip, phone: phone, laptop: laptop, second: second)
    }

    /// The phone attaches a photo to the note; the laptop gets the row at once and the bytes on demand.
    private func attachPhoto(to note: UUID, phone: BoutiqueSync, laptop: BoutiqueSync, second: BoutiqueDB) async throws {
        let image = try await db.attachments.store(Self.picture, contentType: "image/x-portable-graymap")
        let photo = NotePhoto(id: UUID(), noteID: note, caption: "Lisbon from the castle", image: image)
        try await db.write { conn in try NotePhoto.insert { photo }.execute(conn.connection) }
        _ = try await phone.synchronize()
        _ = try await laptop.synchronize()
        let arrived = try await second.read { conn in try NotePhoto.find(photo.id).fetchOne(conn.connection) }
        Output.line("""

            The phone attached a photo to the note (\(image.byteCount) bytes of \(image.contentType), id \(image.id.prefix(12))…).
            Its bytes live beside the database file, never in a row. After syncing, the laptop has the row
            ("\(arrived?.caption ?? "—")"), and its copy of the bytes is \(try await second.attachments.state(of: image)).
            """)
        #if BOUTIQUE_SYNC_HTTP
        try await laptop.attachments.fetch(image)
        let same = try await second.attachments.data(for: image) == Self.picture
        Output.line(
            "Fetched on demand (sync.attachments.fetch), checked against its SHA-256: now \(try await second.attachments.state(of: image))"
                + (same ? ", the same bytes as the phone's." : ", but not the phone's bytes!"))
        #else
        Output.line("Bytes travel over HTTP, which this build has not: they wait on the phone for a server that keeps them.")
        #endif
    }

    /// A small grey-scale picture (a PGM file): a gradient, 32 by 8.
    static let picture: Data = {
        let width = 32, height = 8
        var bytes = Array("P5\n\(width) \(height)\n255\n".utf8)
        for row in 0..<height {
            for column in 0..<width { bytes.append(UInt8((column * 255 / (width - 1) + row * 16) % 256)) }
        }
        return Data(bytes)
    }()

    /// Each pushes, then each pulls what the other pushed.
    private func syncBoth(_ first: BoutiqueSync, _ second: BoutiqueSync) async throws {
        _ = try await first.synchronize()
        _ = try await second.synchronize()
        _ = try await first.synchronize()
    }

    private func showBoth(_ id: UUID, second: BoutiqueDB) async throws {
        var rows: [[DatabaseValue]] = []
        for (name, database) in [("phone", db), ("laptop", second)] {
            let note = try await database.read { conn in try Note.find(id).fetchOne(conn.connection) }
            rows.append([.text(name), .text(note?.title ?? "—"), .text(note.map { $0.body.replacingOccurrences(of: "\n", with: " ⏎ ") } ?? "—")])
        }
        Output.line(TableRenderer.render(columns: ["device", "title", "body"], rows: rows))
    }

    private func show(_ title: String, _ id: UUID, on database: BoutiqueDB, name: String) async throws {
        let note = try await database.read { conn in try Note.find(id).fetchOne(conn.connection) }
        Output.line("\n\(title); the \(name) has:")
        Output.line(TableRenderer.render(
            columns: ["title", "body"], rows: [[.text(note?.title ?? "—"), .text(note?.body ?? "—")]]))
    }
}
