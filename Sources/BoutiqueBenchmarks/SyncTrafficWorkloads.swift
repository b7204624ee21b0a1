import BoutiqueDB
import BoutiqueSync
import Foundation

/// The bytes a sync moves over HTTP: a device pushes 2,000 notes, one transaction each, then syncs
/// again; a second device pulls them. A device is never sent its own changes back, so what the first
/// device receives is answers, not its notes.
///
///     swift run -c release boutique-benchmarks --traffic
enum SyncTrafficWorkloads {
    static func run() async throws {
        let server = try ServerProcess(store: "sqlite")
        defer { server.stop() }
        let url = try await server.url()
        let writerTransport: HTTPSyncTransport = .http(url, token: try SyncNetworkWorkloads.token(tenant: "traffic", user: "a"))
        let readerTransport: HTTPSyncTransport = .http(url, token: try SyncNetworkWorkloads.token(tenant: "traffic", user: "b"))
        let writer = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncNetworkWorkloads.schema)
        let reader = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncNetworkWorkloads.schema)
        let writerSync = try await BoutiqueSync(database: writer, tables: ["note"], server: writerTransport)
        let readerSync = try await BoutiqueSync(database: reader, tables: ["note"], server: readerTransport)
        _ = try await writerSync.synchronize()
        _ = try await readerSync.synchronize()
        let (sentBefore, receivedBefore) = (writerTransport.traffic.sent, writerTransport.traffic.received)
        for index in 0..<2_000 {
            try await writer.write { conn in
                try conn.execute(
                    "INSERT INTO note(id, title, body, rank) VALUES (?, ?, ?, ?)",
                    [.text(UUID().uuidString.lowercased()), .text("note \(index)"), .text(String(repeating: "body ", count: 60)), .integer(Int64(index))])
            }
        }
        let pushed = try await writerSync.synchronize()
        let again = try await writerSync.synchronize()
        let up = writerTransport.traffic.sent - sentBefore
        let back = writerTransport.traffic.received - receivedBefore
        let readerBefore = readerTransport.traffic.received
        let pulled = try await readerSync.synchronize()
        let down = readerTransport.traffic.received - readerBefore
        print("\nsync traffic over HTTP, 2,000 notes of ~330 bytes, one transaction each")
        print(String(format: "  writer: %.2f MB up, %.2f MB back (pushed %d changes, applied %d of its own back, then %d)",
                     Double(up) / 1e6, Double(back) / 1e6, pushed.pushed, pushed.applied, again.applied))
        print(String(format: "  reader: %.2f MB down for the %d changes it applied", Double(down) / 1e6, pulled.applied))
        await writer.close()
        await reader.close()
    }
}
