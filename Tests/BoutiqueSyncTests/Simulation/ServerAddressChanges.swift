import BoutiqueSync
import BoutiqueSyncServer
import BoutiqueTestSupport
import Foundation

/// A server is known by its identity, not its address: the simulator sets a device up again with
/// another spelling of its server's address, and now and then makes the address lead to another store
/// for a while.
///
/// - Another spelling of the same server's address: the next sync takes up the progress the file
///   made (no snapshot, the replica id and the cursor as they were: the sync helper checks the last
///   two after every sync) and says no new server.
/// - Another store behind the address (a copy of the device's file set up against it, so that the run's
///   devices still converge with the run's server): the device is told (``SyncReport/newServer``), and
///   bootstraps from it without losing anything of its own (its rows as they were, its unpushed work
///   pushed there).
enum ServerAddressChanges {
    /// Sets the device up again with another spelling of its server's address.
    static func respell(_ device: SimulatedDevice, random: inout SeededRandom, time: VirtualTime, identifiers: SeededIdentifiers) async throws {
        guard let database = device.database else { return }
        let current = device.network.serverIdentifier
        // Whether the file knows the server this address reaches and has bootstrapped from it.
        let known = try await database.read { conn in
            try conn.fetchValue(
                """
                SELECT s.bootstrapped FROM boutique_sync_server_alias a JOIN boutique_sync_server s ON s.server = a.server
                WHERE a.address = ?
                """,
                [.text(current)])
        }
        await device.crash()
        device.network.respell(random.pick(SimulatedNetwork.spellings(of: device.network.tenant).filter { $0 != current }))
        try await device.open(time: time, identifiers: identifiers)
        device.snapshotsBeforeRespelling = known == .integer(1)
            ? (device.network.snapshotRequests, device.network.deliveredPushes.count) : nil
    }

    /// What must hold of a sync that succeeded, after an address change: no new server said, and
    /// nothing downloaded again when the file knew its server (unless something else asked for a
    /// snapshot meanwhile: a new replica id, a refused transaction sent in parts, a copy of the file).
    static func check(_ device: SimulatedDevice, report: SyncReport, replicaChanged: Bool, failures: inout [String]) {
        if let named = report.newServer {
            failures.append("\(device.name) was told of a new server (\(named.store)) though its address still reached the same")
        }
        defer { device.snapshotsBeforeRespelling = nil }
        // A file restored or copied learns that another file pushed under its replica id, takes a new
        // one and bootstraps again, whatever the address.
        guard let before = device.snapshotsBeforeRespelling, device.network.snapshotRequests > before.snapshots, !replicaChanged,
            !device.mayChangeReplica
        else { return }
        let refusedInParts = device.network.deliveredPushes.dropFirst(before.pushes).contains { push in
            push.response.refusals?.contains(where: \.rowsLeftOut) == true
        }
        if !refusedInParts {
            failures.append("\(device.name) downloaded its server's rows again after reaching it through another spelling of its address")
        }
    }

    /// Copies the device's file to another device whose address leads to another store, new and
    /// empty (an operator replaced the server's store), and syncs it there once.
    static func visitAnotherStore(
        _ device: SimulatedDevice, time: VirtualTime, identifiers: SeededIdentifiers, directory: SyncTemporaryDirectory, step: Int,
        failures: inout [String]
    ) async throws {
        let address = device.network.serverIdentifier
        let other = SyncServer(
            store: try await SQLiteSyncStore.open(url: directory.file("\(device.name)-elsewhere-\(step).db")),
            maximumClockSkewMilliseconds: SyncProtocol.defaultMaximumClockSkewMilliseconds, wallClock: { time.milliseconds })
        let moved = SimulatedDevice(
            name: "\(device.name)-elsewhere-\(step)", url: directory.file("\(device.name)-elsewhere-\(step)-device.db"),
            network: SimulatedNetwork(server: other, tenant: device.network.tenant, seed: UInt64(step)),
            skew: device.skew.value.load(ordering: .relaxed), upgraded: device.isUpgraded, pullLimit: device.pullLimit, app: device.app)
        moved.network.respell(address)
        try await device.copy(to: moved.url)
        try await moved.open(time: time, identifiers: identifiers)
        guard let copy = moved.database, let sync = moved.sync else { return }
        let knewServer = try await copy.read { conn in
            try conn.fetchValue("SELECT 1 FROM boutique_sync_server_alias WHERE address = ?", [.text(address)]) != nil
        }
        let before = try await rows(of: copy)
        let unpushed = try await lastPending(copy, address: address)
        do {
            let report = try await sync.synchronize()
            if knewServer, report.newServer == nil {
                failures.append("step \(step): \(device.name)'s address led to another store and it was not told")
            }
            if !knewServer, report.newServer != nil {
                failures.append("step \(step): \(device.name) was told of a new server at its first contact with a server")
            }
            // The other store was empty: the bootstrap brought nothing and took nothing away, and
            // the work the file had not pushed went there.
            if try await rows(of: copy) != before {
                failures.append("step \(step): \(device.name)'s rows changed when it bootstrapped from an empty store")
            }
            if case let acknowledged = try await acknowledged(copy, address: address), acknowledged < unpushed {
                failures.append(
                    "step \(step): \(device.name)'s work through transaction \(unpushed) was not pushed to the other store (acknowledged \(acknowledged))")
            }
        } catch {
            failures.append("step \(step): \(device.name) could not sync with another store: \(error)")
        }
        await moved.crash()
    }

    /// The last local transaction the file has not had acknowledged by the server its address
    /// reaches, 0 when there is none. An address the file never had an answer through (spelled
    /// another way since its last sync) names no progress: the file's work is then measured against
    /// the servers it did sync with (what one of them acknowledged was pushed, and the change log,
    /// pruned up to that, no longer holds it).
    private static func lastPending(_ database: DatabaseActor, address: String) async throws -> Int64 {
        let last = try await database.read { conn in
            try conn.fetchValue(
                """
                SELECT max(change_txn_id) FROM boutique_sync_txn WHERE remote = 0 AND change_txn_id > coalesce(
                    (SELECT acknowledged FROM boutique_sync_server
                     WHERE server = (SELECT server FROM boutique_sync_server_alias WHERE address = ?1)),
                    (SELECT max(acknowledged) FROM boutique_sync_server), 0)
                """,
                [.text(address)])
        }
        if case .integer(let value)? = last { return value }
        return 0
    }

    /// The last transaction the server the address reaches acknowledged.
    private static func acknowledged(_ database: DatabaseActor, address: String) async throws -> Int64 {
        let acknowledged = try await database.read { conn in
            try conn.fetchValue(
                """
                SELECT acknowledged FROM boutique_sync_server
                WHERE server = coalesce((SELECT server FROM boutique_sync_server_alias WHERE address = ?1), ?1)
                """,
                [.text(address)])
        }
        if case .integer(let value)? = acknowledged { return value }
        return 0
    }

    /// Every synced row the device shows.
    private static func rows(of database: DatabaseActor) async throws -> [[DatabaseValue]] {
        try await database.read { conn in
            var rows: [[DatabaseValue]] = []
            for table in ConvergenceCheck.tables {
                rows += try conn.fetchAll("SELECT * FROM \(table.name) ORDER BY id").map(\.values)
            }
            return rows
        }
    }
}
