import BoutiqueSQLite
import BoutiqueSync
import BoutiqueSyncServer
import Foundation
import Synchronization

/// One device of the simulation: a real database file, real sync, its own clock skew and network.
final class SimulatedDevice {
    let name: String
    let url: URL
    let network: SimulatedNetwork
    /// How far this device's clock is from the true time, in milliseconds.
    let skew: SkewBox
    /// The schema and synced tables of the app it runs.
    let app: SimulatedApp
    var isUpgraded: Bool
    var database: DatabaseActor?
    var sync: BoutiqueSync?
    /// The latest backup of the file, and whether it had the upgrade.
    var backup: (url: URL, upgraded: Bool)? {
        didSet { backupWriters = pushedWriters }
    }
    /// The writers that had pushed when the latest backup was taken: the backup knows them.
    private var backupWriters: Set<String> = []
    /// The writers whose writes a restore made the file forget: nothing on the device can be told of
    /// their losses any more.
    private(set) var forgottenWriters: Set<String> = []
    /// The pull cursor last seen, to check it never goes back (a restore starts a new history).
    var lastCursor: Int64 = 0
    let pullLimit: Int
    /// The replica id last seen, and whether the file was restored or copied (only then may it change).
    var replica: String?
    var mayChangeReplica = false
    /// The losses sync reported to this device, over all its sessions.
    var losses: [SyncLoss] = []
    /// Every id this device's sync made (replica ids, and the writer ids that stamp its commits): the
    /// stamps of its own writes carry one of them.
    let madeIdentifiers = Lock<Set<String>>([])
    /// The device this one's file was copied from: the copy holds its history, so its writes are the
    /// copy's too.
    var origin: SimulatedDevice?
    /// The snapshot requests and delivered pushes before the address was spelled another way, while
    /// the next sync must download nothing again (the device knew its server).
    var snapshotsBeforeRespelling: (snapshots: Int, pushes: Int)?

    /// The writers of what this device, or the one it was copied from, pushed.
    var pushedWriters: Set<String> {
        var writers = origin?.pushedWriters ?? []
        for push in network.deliveredPushes {
            for transaction in push.request.transactions { writers.insert(transaction.stamp.replica) }
        }
        return writers
    }

    init(name: String, url: URL, network: SimulatedNetwork, skew: Int64, upgraded: Bool, pullLimit: Int, app: SimulatedApp = .notes) {
        self.name = name
        self.app = app
        self.url = url
        self.network = network
        self.skew = SkewBox(skew)
        self.isUpgraded = upgraded
        self.pullLimit = pullLimit
    }

    func open(time: VirtualTime, identifiers: SeededIdentifiers) async throws {
        let database = try await DatabaseActor.open(url: url, migrations: isUpgraded ? app.upgraded : app.plan)
        let skew = self.skew
        let made = madeIdentifiers
        let options = SyncOptions(
            pushRowLimit: app.pushRowLimit, pullLimit: pullLimit,
            prunesAcknowledgedChanges: !SimulationTrace.isOn,
            wallClock: { UInt64(max(0, Int64(time.milliseconds) + skew.value.load(ordering: .relaxed))) },
            makeIdentifier: {
                let identifier = identifiers.next()
                made.withLock { _ = $0.insert(identifier) }
                return identifier
            }, collaborativeText: app.collaborativeText)
        self.database = database
        if let models = app.models {
            self.sync = try await BoutiqueSync(database: database, tables: models, server: network, options: options)
        } else {
            self.sync = try await BoutiqueSync(database: database, tables: app.tables, server: network, options: options)
        }
    }

    /// Takes the losses the current session reported and nobody read yet.
    func collectLosses() async {
        if let sync { losses += await sync.takeReportedLosses() }
    }

    /// Drops the process state: sync and the database go, the file stays.
    func crash() async {
        await collectLosses()
        sync = nil
        await database?.close()
        database = nil
    }

    /// The pull cursor the file holds, kept under the server's name once a reply gave it.
    func cursor() async throws -> Int64 {
        guard let database else { return lastCursor }
        let address = network.serverIdentifier
        return try await database.read { conn in
            try conn.fetchValue(
                """
                SELECT cursor FROM boutique_sync_server
                WHERE server = coalesce((SELECT server FROM boutique_sync_server_alias WHERE address = ?), ?)
                """,
                [.text(address), .text(address)])
        }.flatMap { if case .integer(let value) = $0 { value } else { nil } } ?? 0
    }

    /// A consistent copy of the file at `target`, as a backup tool would take it: from a connection of
    /// its own, beside the app's (one snapshot of the committed file).
    func copy(to target: URL) async throws {
        try? FileManager.default.removeItem(at: target)
        let source = url.path
        try await Task.detached {
            // Opening reads the schema before a busy handler can be set: a connection of another
            // process closing at that moment (the last one checkpoints) answers SQLITE_BUSY, which a
            // backup tool waits out, as BoutiqueDB's own opening does.
            let deadline = ContinuousClock.now + .seconds(syncHangDeadline(seconds: 10))
            var opened: Connection?
            while opened == nil {
                switch Result(catching: { () throws(SQLiteError) -> Connection in try Connection(path: source) }) {
                case .success(let connection): opened = connection
                case .failure(let error) where error.code == .busy && ContinuousClock.now < deadline:
                    try await Task.sleep(for: .milliseconds(5))
                case .failure(let error): throw error
                }
            }
            guard let connection = opened else { return }
            defer { connection.close() }
            try connection.setBusyTimeout(milliseconds: Int(10_000 * syncTimeoutScale))
            try connection.execute("VACUUM INTO ?", [.text(target.path)])
        }.value
    }

    /// Replaces the file with its backup.
    func restore(time: VirtualTime, identifiers: SeededIdentifiers) async throws {
        guard let backup else { return }
        forgottenWriters.formUnion(pushedWriters.subtracting(backupWriters))
        await crash()
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
        try FileManager.default.copyItem(at: backup.url, to: url)
        lastCursor = 0
        try await open(time: time, identifiers: identifiers)
    }
}

/// A clock skew that the device's wall-clock closure reads while the simulator changes it.
final class SkewBox: Sendable {
    let value: Atomic<Int64>
    init(_ milliseconds: Int64) { value = Atomic(milliseconds) }
}
