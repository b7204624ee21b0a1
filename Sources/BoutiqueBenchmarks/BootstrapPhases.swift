import BoutiqueDB
import BoutiqueSync
import BoutiqueSyncServer
import Foundation

/// Where a bootstrap's time goes, phase by phase, measured in this process on the server file the
/// tool bootstraps from: the server reading its pages (``SyncServer/snapshot(_:tenant:)``, the store's
/// reads and the page's state decoding), the pages' packing and JSON encoding, their decoding and
/// unpacking, and a device merging
/// them (an in-process bootstrap into a new file, less the server's share). What the HTTP run takes
/// beyond their sum is the transfer and the two processes' framing.
struct BootstrapPhases {
    var serverSeconds = 0.0
    var encodeSeconds = 0.0
    var decodeSeconds = 0.0
    var applySeconds = 0.0
    var bytes = 0
    var rows = 0

    /// Measures the phases of bootstrapping `tenant` from `store`; `folder` takes the device file.
    /// `packs`: the rows travel packed (``PackedSnapshotRows``), as `boutique sync` asks for them.
    static func measure(store: any SyncStore, tenant: String, folder: URL, packs: Bool = true) async throws -> BootstrapPhases {
        var phases = BootstrapPhases()
        let server = SyncServer(store: store)
        let encoder = SyncJSON.encoder()
        let decoder = SyncJSON.decoder()
        var after: SnapshotPosition?
        repeat {
            let request = SnapshotRequest(replica: "phases", after: after, limit: pageSize)
            var start = SyncNetworkWorkloads.now()
            var page = try await server.snapshot(request, tenant: tenant)
            phases.serverSeconds += SyncNetworkWorkloads.now() - start
            // As the HTTP front end and transport do it: packed and encoded, decoded and unpacked.
            start = SyncNetworkWorkloads.now()
            if packs { page.packRows() }
            let body = try encoder.encode(page)
            phases.encodeSeconds += SyncNetworkWorkloads.now() - start
            start = SyncNetworkWorkloads.now()
            var decoded = try decoder.decode(SnapshotResponse.self, from: body)
            try decoded.unpackRows()
            phases.decodeSeconds += SyncNetworkWorkloads.now() - start
            phases.bytes += body.count
            phases.rows += decoded.rows.count
            after = decoded.next
        } while after != nil

        let url = folder.appendingPathComponent("phases-\(tenant).db")
        let database = try await DatabaseActor.open(url: url, migrations: SyncNetworkWorkloads.schema)
        let sync = try await BoutiqueSync(database: database, tables: ["note"], server: .inProcess(server, tenant: tenant))
        let start = SyncNetworkWorkloads.now()
        _ = try await sync.synchronize()
        // The in-process bootstrap asked the server for the same pages: their share is taken out.
        phases.applySeconds = SyncNetworkWorkloads.now() - start - phases.serverSeconds
        await sync.stop()
        await database.close()
        try? FileManager.default.removeItem(at: url)
        return phases
    }

    /// The rows a device asks for in a page.
    static let pageSize = 1_000

    /// The phases as a line: microseconds a row each, and bytes a row.
    func line(httpSeconds: Double) -> String {
        let perRow = { (seconds: Double) in seconds / Double(max(rows, 1)) * 1e6 }
        let transfer = httpSeconds - serverSeconds - encodeSeconds - decodeSeconds - applySeconds
        return String(
            format: "server read %.1f, encode %.1f, decode %.1f, device apply %.1f, transfer and rest %.1f µs a row; %.0f bytes a row",
            perRow(serverSeconds), perRow(encodeSeconds), perRow(decodeSeconds), perRow(applySeconds), perRow(transfer),
            Double(bytes) / Double(max(rows, 1)))
    }
}
