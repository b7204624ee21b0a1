import Foundation

/// The sync engine for one database and one server: push, pull, bootstrap, one step at a time.
///
/// Steps never overlap: ``exclusively(_:)`` queues them, because each reads the state the previous one
/// wrote (the acknowledged id, the cursor). A pull's long wait happens outside that queue, so local
/// commits are pushed meanwhile.
actor SyncSession {
    let database: DatabaseActor
    let transport: any SyncTransport
    let tables: [String: SyncedTable]
    /// Whether a synced table has collaborative text columns (``SyncOptions/collaborativeText``).
    var hasCollaborativeText: Bool { tables.values.contains { !$0.collaborativeColumns.isEmpty } }
    let options: SyncOptions
    let schemaVersion: Int
    var replica: String
    /// The secret of ``replica`` (``ReplicaSecrets``), read or made on first use.
    var replicaSecret: String?
    /// Parent table → the synced tables whose foreign keys point at it.
    let foreignKeys: [String: [SyncedTable]]
    /// The synced tables as the first push of a session describes them to the server (whose rules
    /// place a follower by the table its foreign key points to).
    let tableShapes: [SyncTableShape]
    /// Whether this session has pushed once: the push that finds a restored or cloned file.
    var handshaken = false
    /// Whether the server said it takes transactions in parts (``PushPart``), at the session's first push.
    var acceptsTransactionParts = false
    /// The transaction being sent in parts, and the position through which the server holds it.
    var partSent: (transaction: Int64, through: Int64)?
    /// The most bytes of row images one push carries (``pushByteLimit``, halved at each 413).
    var pushBytes = SyncSession.pushByteLimit
    /// The transaction being sent in parts as the log read found it, with where that read started
    /// and ended: the next part's round does not read its log rows again.
    var largeAhead: (after: Int64, transaction: LocalTransaction, readThrough: Int64)?
    /// The digest of the transaction being sent in parts, with the stamp it was taken for.
    var nettedDigest: (transaction: Int64, stamp: SyncStamp, digest: UInt64)?
    /// Whether the schema check passed in this session.
    private var schemaChecked = false
    /// The change log was read through here with nothing local after the acknowledged id.
    var scannedThrough: Int64 = 0
    /// Whether values refused by a table were retried in this session.
    var retriedRefusedRows = false
    /// Whether a pull of this session has looked at the parked values (a pull with nothing new skips
    /// its transaction after that).
    var parkedChecked = false
    /// The acknowledged id the change log was last pruned for.
    var prunedFor: Int64 = -1
    /// Bootstraps in the current synchronization, to stop a server that keeps asking for them.
    var bootstraps = 0
    /// The server's clock minus this device's, in milliseconds, as last written to the file (the
    /// stamps BoutiqueDB takes are corrected by it).
    var recordedClockOffset: Int64?
    /// Tells the app-facing object what the session is doing; set once, right after it is made.
    private(set) var reporter: SyncSessionReporter?
    /// The count of local transactions waiting to be pushed, kept up to date cheaply.
    nonisolated let pendingTally: PendingTally
    /// The server's refusals, for ``BoutiqueSync/refusals``.
    nonisolated let refusals = SyncEventChannel<SyncRefusal>()
    /// Local writes of collaborative text the fold could not merge, until reported on ``refusals``.
    nonisolated let unmergeableTextEdits = UnmergeableTextEdits()
    /// The local changes merges discarded, for ``BoutiqueSync/losses``; sent after their transaction commits.
    let losses = SyncEventChannel<SyncLoss>()
    /// The rows others moved out of what this user sees, for ``BoutiqueSync/departures``; sent after
    /// the pull that removed them commits.
    let departures = SyncEventChannel<SyncDeparture>()
    private var busy = false
    private var queue: [CheckedContinuation<Void, Never>] = []

    /// The key the file's progress with the server is kept under: the server's identity
    /// (``SyncServerID/key``) once a reply told it, the transport's address before.
    var serverID: String
    /// The server this session found behind the address in place of the one the file last synced
    /// with (another store): its progress starts anew, with a bootstrap.
    var newServer: SyncServerID?
    /// The server's history as last recorded for ``serverID`` (``followHistory(_:)``), so that a reply
    /// of the same history reads nothing.
    var recordedHistory: (server: String, history: String)?
    /// How many times this session found the server's history changed (a restored store): a step
    /// whose request went out before the count moved drops the answer, whose positions belong to the
    /// history the file just forgot.
    var historyChanges = 0

    init(
        database: DatabaseActor, transport: any SyncTransport, tables: [String: SyncedTable],
        options: SyncOptions, replica: String, schemaVersion: Int, foreignKeys: [String: [SyncedTable]],
        attachmentColumns: [String: [String]] = [:]
    ) {
        self.foreignKeys = foreignKeys
        self.tableShapes = tables.values.map { table in
            var references: [String: String] = [:]
            for foreignKey in table.foreignKeys {
                guard let column = foreignKey.column, tables[foreignKey.parent.lowercased()] != nil else { continue }
                references[column] = foreignKey.parent
            }
            return SyncTableShape(
                table: table.lowercasedName, columns: table.syncedColumns, references: references,
                collaborativeText: Array(table.collaborativeColumns), attachments: attachmentColumns[table.lowercasedName] ?? [])
        }.sorted { $0.table < $1.table }
        self.database = database
        self.transport = transport
        self.tables = tables
        self.serverID = transport.serverIdentifier
        self.pendingTally = PendingTally(database: database, address: transport.serverIdentifier)

        self.options = options
        self.replica = replica
        self.schemaVersion = schemaVersion
    }

    func setReporter(_ reporter: SyncSessionReporter) { self.reporter = reporter }

    /// The secret that goes with the replica id in every push and pull, made (and stored) the first
    /// time this id needs one.
    func currentReplicaSecret() async throws -> String {
        if let replicaSecret { return replicaSecret }
        let replica = self.replica
        let secret = try await database.write { conn in try ReplicaSecrets.secret(for: replica, SQLRunner(conn)) }
        // The id may have changed while the write ran; the next call reads the new one's.
        if replica == self.replica { replicaSecret = secret }
        return secret
    }

    /// Runs `body` as `phase`, so that the status shows it while it runs.
    func during<T: Sendable>(_ phase: SyncPhase?, _ body: () async throws -> T) async throws -> T {
        guard let phase else { return try await body() }
        await reporter?.phase(phase, true)
        do {
            let result = try await body()
            await reporter?.phase(phase, false)
            return result
        } catch {
            await reporter?.phase(phase, false)
            throw error
        }
    }

    /// Reports a refusal of the server to the app and returns it, to throw.
    func refused(_ reason: SyncRefusal.Reason?, _ message: String?, fallback: String) async -> SyncRefusal {
        let refusal = SyncRefusal(reason: reason ?? .invalid, message: message ?? fallback)
        refusals.send(refusal)
        await reporter?.refusal(refusal)
        return refusal
    }

    /// Runs `body` when no other step runs.
    func exclusively<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        if busy {
            await withCheckedContinuation { queue.append($0) }
        }
        busy = true
        defer {
            if queue.isEmpty { busy = false } else { queue.removeFirst().resume() }
        }
        // Another process sharing the file may have learned which server this address reaches.
        if serverID == transport.serverIdentifier { try await resolveServerAlias() }
        do {
            let result = try await body()
            await reportUnmergeableTextEdits()
            return result
        } catch {
            await reportUnmergeableTextEdits()
            throw error
        }
    }

    /// Reports the local text writes a fold left out (``UnmergeableTextEdits``) as refusals.
    func reportUnmergeableTextEdits() async {
        for refusal in unmergeableTextEdits.take() {
            refusals.send(refusal)
            await reporter?.refusal(refusal)
        }
    }

    // MARK: Synchronize

    /// Pushes everything local, then pulls until caught up. A push the server's sync rules cannot
    /// place (``SyncRefusal/Reason/rulesMismatch``) does not stop the pull: its changes stay pending,
    /// and the refusal is thrown once the pull is done.
    func synchronize() async throws -> SyncReport {
        try await exclusively {
            try await checkSchemaOnce()
            bootstraps = 0
            var pushed = 0
            var unplaced: (any Error)?
            do {
                pushed = try await pushAll()
            } catch {
                guard (error as? SyncRefusal)?.reason == .rulesMismatch else { throw error }
                unplaced = error
            }
            var applied = 0
            while true {
                let step = try await pullOnce(wait: .zero)
                applied += step.applied
                if !step.hasMore { break }
            }
            try await pruneAcknowledged()
            if let unplaced { throw unplaced }
            defer { newServer = nil }
            return SyncReport(pushed: pushed, applied: applied, newServer: newServer)
        }
    }

    /// Pushes what is pending (the start loop calls it after local commits).
    func pushPending() async throws -> Int {
        try await exclusively {
            try await checkSchemaOnce()
            return try await pushAll()
        }
    }

    /// Waits on the server for changes after the cursor, then applies them. The wait is outside the
    /// step queue; the apply is inside it, and is dropped when another step moved the cursor meanwhile.
    func pullWaiting() async throws -> Int {
        let (state, server) = try await exclusively { () async throws -> (ServerState?, String) in
            try await checkSchemaOnce()
            if !handshaken { _ = try await pushAll() }
            let state = try await serverState()
            return (state.bootstrapped ? state : nil, serverID)
        }
        guard let state else { return try await exclusively { try await pullOnce(wait: .zero).applied } }
        let cursor = state.cursor
        let waitMilliseconds = Int(options.pullWait.components.seconds * 1000)
            + Int(options.pullWait.components.attoseconds / 1_000_000_000_000_000)
        let request = try await pullRequest(from: state, waitMilliseconds: waitMilliseconds)
        let askedAt = options.now()
        let response = try await send(adoptingServer: false) { [request] in try await transport.pull(request) }
        let span = ReplySpan(askedAt: askedAt, answeredAt: options.now())
        return try await exclusively {
            // Dropped when another step moved the cursor or found another server behind the address,
            // or when this answer comes from another server (taken up here, between steps): the next
            // round goes on from there.
            if let named = response.server {
                let changes = historyChanges
                try await adopt(named)
                guard historyChanges == changes else { return 0 }
            }
            guard serverID == server else { return 0 }
            guard try await serverState().cursor == cursor else { return 0 }
            return try await handlePull(response, requestedCursor: cursor, span).applied
        }
    }

    // MARK: State

    func serverState() async throws -> ServerState {
        let server = serverID
        return try await database.read { conn in try ServerState.read(server: server, SQLRunner(conn)) }
    }

    /// A pull from `state`'s cursor, saying how far this file has passed the log: its cursor, or the
    /// cursor its oldest unacknowledged text edit was made from.
    func pullRequest(from state: ServerState, waitMilliseconds: Int) async throws -> PullRequest {
        let server = serverID
        var request = PullRequest(replica: replica, cursor: state.cursor, limit: options.pullLimit, waitMilliseconds: waitMilliseconds)
        request.replicaSecret = try await currentReplicaSecret()
        let now = options.now()
        let editBase = try await database.read { conn in
            try CollaborativeTextCapture.editBase(server: server, acknowledged: state.acknowledged, now: now, SQLRunner(conn))
        }
        request.passedThrough = min(state.cursor, editBase ?? state.cursor)
        return request
    }

    /// Local transactions not yet acknowledged.
    func pendingCount() async throws -> PendingCount {
        try await pendingTally.count()
    }

    /// Runs a request, reporting a failure to get a reply as ``/BoutiqueDB/BoutiqueError/syncUnavailable(reason:)``
    /// and passing a refusal of the transport (an HTTP 4xx) on to the app as it goes by, unless
    /// `reporting` is false: a call the app made itself (share, members) hears of its refusal as the
    /// error it throws, and nothing of it reaches ``BoutiqueSync/refusals`` or the status.
    ///
    /// A reply that names its server (``SyncServerIdentified``) moves the file's progress to be kept
    /// under that name before anything reads it, unless `adoptingServer` is `false` (a long poll,
    /// which runs beside the session's other steps and must not change what they read).
    func send<T: Sendable>(
        reporting: Bool = true, adoptingServer: Bool = true, _ request: () async throws -> T
    ) async throws -> T {
        let reply: T
        do {
            reply = try await request()
        } catch let error as BoutiqueError {
            throw error
        } catch let refusal as SyncRefusal {
            if reporting {
                refusals.send(refusal)
                await reporter?.refusal(refusal)
            }
            throw refusal
        } catch is CancellationError {
            throw BoutiqueError.cancelled
        } catch {
            throw BoutiqueError.syncUnavailable(reason: String(describing: error))
        }
        if adoptingServer, let identified = reply as? any SyncServerIdentified { try await adopt(identified.server) }
        return reply
    }

    // MARK: Schema

    private func checkSchemaOnce() async throws {
        guard !schemaChecked else { return }
        try await checkSchema()
        schemaChecked = true
    }

    /// Compares the synced tables with the shapes recorded when sync last checked; records the new
    /// shapes when every change is additive.
    func checkSchema() async throws {
        let tables = Array(self.tables.values)
        try await database.write { conn in try SchemaCheck.check(tables, on: SQLRunner(conn)) }
        schemaChecked = true
    }
}
