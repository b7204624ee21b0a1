import BoutiqueDB
import BoutiqueSync
import BoutiqueSyncServer
import Foundation

/// What naming a 100 KB note's body as collaborative text costs through sync, against the same work on
/// a plain column: one keystroke written and synced, 1,000 keystrokes of another device pulled, and
/// the size of sync's metadata for the note, written by one device and by three (with what compacting
/// its tombstones at a version every writer passed leaves).
enum CollaborativeTextSyncWorkloads {
    static let size = 100_000

    static func run(rounds: Int) async throws {
        let paragraph = "Collaborative text keeps both edits: élan, 日本語, 🙂.\n"
        var body = ""
        while body.utf8.count < size { body += paragraph }

        var keystroke: [Bool: Double] = [:]
        var pull: [Bool: Double] = [:]
        for collaborative in [false, true] {
            keystroke[collaborative] = try await keystrokes(body: body, collaborative: collaborative, rounds: max(rounds, 5))
            pull[collaborative] = try await remotePull(body: body, collaborative: collaborative, edits: 1_000)
        }
        print("collaborative text through sync, a \(body.utf8.count)-byte note (release medians):")
        print(String(format: "  one keystroke written + synchronize: plain %.2f ms, collaborative %.2f ms (%.2f×)",
                     keystroke[false]!, keystroke[true]!, keystroke[true]! / keystroke[false]!))
        print(String(format: "  1,000 remote keystrokes pulled:      plain %.0f ms, collaborative %.0f ms (%.2f×)",
                     pull[false]!, pull[true]!, pull[true]! / pull[false]!))
        for writers in [1, 3] { try await metadata(body: body, writers: writers) }
    }

    static func open(_ server: SyncServer, collaborative: Bool) async throws -> (BoutiqueDB, BoutiqueSync) {
        let database = try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: BoutiqueMigrationPlan {
            BoutiqueMigration("v1_note") { conn in try conn.execute("CREATE TABLE note(id TEXT PRIMARY KEY NOT NULL, body TEXT)") }
        })
        let options = SyncOptions(collaborativeText: collaborative ? ["note.body"] : [])
        return (database, try await BoutiqueSync(database: database, tables: ["note"], server: .inProcess(server), options: options))
    }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e3 + Double(duration.components.attoseconds) / 1e15
    }

    /// The median of writing one character into the middle of the body and synchronizing.
    static func keystrokes(body: String, collaborative: Bool, rounds: Int) async throws -> Double {
        let server = SyncServer(store: try await SQLiteSyncStore.open(url: BoutiqueDB.inMemoryURL()))
        let (database, sync) = try await open(server, collaborative: collaborative)
        try await database.write { conn in try conn.execute("INSERT INTO note VALUES ('n1', ?)", [.text(body)]) }
        _ = try await sync.synchronize()
        var times: [Double] = []
        var scalars = Array(body.unicodeScalars)
        for round in 0..<rounds {
            scalars.insert("k", at: scalars.count / 2 + round)
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars)
            let text = String(view)
            let start = ContinuousClock.now
            try await database.write { conn in try conn.execute("UPDATE note SET body = ? WHERE id = 'n1'", [.text(text)]) }
            _ = try await sync.synchronize()
            times.append(milliseconds(ContinuousClock.now - start))
        }
        await database.close()
        return times.sorted()[times.count / 2]
    }

    /// How long one device's synchronize takes to pull another's `edits` keystrokes (each a transaction).
    static func remotePull(body: String, collaborative: Bool, edits: Int) async throws -> Double {
        let server = SyncServer(store: try await SQLiteSyncStore.open(url: BoutiqueDB.inMemoryURL()))
        let (writer, writerSync) = try await open(server, collaborative: collaborative)
        let (reader, readerSync) = try await open(server, collaborative: collaborative)
        try await writer.write { conn in try conn.execute("INSERT INTO note VALUES ('n1', ?)", [.text(body)]) }
        _ = try await writerSync.synchronize()
        _ = try await readerSync.synchronize()
        var scalars = Array(body.unicodeScalars)
        for index in 0..<edits {
            scalars.insert("k", at: scalars.count / 3 + index)
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars)
            let text = String(view)
            try await writer.write { conn in try conn.execute("UPDATE note SET body = ? WHERE id = 'n1'", [.text(text)]) }
        }
        _ = try await writerSync.synchronize()
        let start = ContinuousClock.now
        _ = try await readerSync.synchronize()
        let elapsed = milliseconds(ContinuousClock.now - start)
        let same = try await reader.read { conn in try conn.fetchOne("SELECT body FROM note")?.values.first }
        guard case .text(let pulled)? = same, pulled.unicodeScalars.count == scalars.count else {
            throw BoutiqueError.invalidArgument("the pulled note differs from the written one")
        }
        await writer.close()
        await reader.close()
        return elapsed
    }

    /// The bytes of the note's row state on the server (the app's value, or the text's state) once
    /// `writers` devices each edited it in 100 places (typing and deleting), and what compacting the
    /// text at the version every replica has passed leaves.
    static func metadata(body: String, writers: Int) async throws {
        let server = SyncServer(store: try await SQLiteSyncStore.open(url: BoutiqueDB.inMemoryURL()))
        var devices: [(BoutiqueDB, BoutiqueSync)] = []
        for _ in 0..<writers { devices.append(try await open(server, collaborative: true)) }
        try await devices[0].0.write { conn in try conn.execute("INSERT INTO note VALUES ('n1', ?)", [.text(body)]) }
        for device in devices { _ = try await device.1.synchronize() }
        for round in 0..<100 {
            let (database, sync) = devices[round % writers]
            try await database.write { conn in
                try conn.execute("UPDATE note SET body = substr(body, 1, ?1) || 'edit ' || substr(body, ?1 + 10) WHERE id = 'n1'",
                                 [.integer(Int64(round * 900))])
            }
            _ = try await sync.synchronize()
        }
        for device in devices { _ = try await device.1.synchronize() }
        let state = try await server.store.read(tenant: "default") { store in try store.rowState(table: "note", key: .text("n1")) }
        guard let cell = state?.cells["body"] else { return }
        var text = try CollaborativeTextValue(cell.value).text()
        let textBytes = text.text.utf8.count
        let before = text.record().count
        try text.compact(stableThrough: text.version)
        let after = text.record().count
        print(String(format: "  metadata, %d writer%@: text %d bytes, state %d bytes (%.2f×), after compaction %d bytes (%.2f×)",
                     writers, writers == 1 ? "" : "s", textBytes, before, Double(before) / Double(textBytes), after,
                     Double(after) / Double(textBytes)))
        for device in devices { await device.0.close() }
    }
}
