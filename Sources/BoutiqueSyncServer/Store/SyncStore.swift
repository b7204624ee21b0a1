/// Where a sync server keeps its tenants' data: the merged current state of every row, the
/// append-only change log, and what it knows of each replica.
///
/// ```swift
/// let store = try await SQLiteSyncStore.open(url: URL(fileURLWithPath: "sync.db"))
/// let server = SyncServer(store: store)
/// ```
///
/// The server's logic (``SyncServer``) runs each push as one store transaction, so its changes and the
/// replica's watermark are written together or not at all; pulls and snapshots read through
/// ``read(tenant:_:)``. Table and column names are values here, never SQL: a store keeps them as data.
public protocol SyncStore: Sendable {
    /// Runs `body` in one transaction over `tenant`'s data; commits when it returns, rolls back when
    /// it throws.
    func transaction<T: Sendable>(
        tenant: String, _ body: @Sendable (any SyncStoreTransaction) throws -> T
    ) async throws -> T

    /// Runs `body` over `tenant`'s data without changing it, on one consistent view of what was
    /// committed: what pulls, snapshots and long polls use, so that a read need not wait for a write
    /// (another tenant's, or this one's). The default runs ``transaction(tenant:_:)``.
    ///
    /// The view must hold a prefix of the tenant's log (every change up to its latest sequence number):
    /// a pull moves a device's cursor to the last change it read, and must never pass one that commits
    /// later with a lower number. A store whose sequence numbers are taken in commit order (one writer,
    /// or a tenant lock held to the commit) gives that with any snapshot read.
    func read<T: Sendable>(
        tenant: String, _ body: @Sendable (any SyncStoreTransaction) throws -> T
    ) async throws -> T

    /// Calls `wake` with a tenant's name whenever changes for that tenant were committed to the store
    /// by a server in another process (another instance on the same PostgreSQL database, say), so
    /// that long-polling pulls waiting on this server return them. Called once per server, before its
    /// first long poll; a store only one process writes needs nothing here (the default).
    func observeCommits(_ wake: @escaping @Sendable (String) -> Void) async throws

    /// Every tenant the store has data for, in byte order of their names: the tenants
    /// ``SyncHousekeeping`` collects garbage for.
    ///
    /// ```swift
    /// for tenant in try await store.tenants() { _ = try await server.collectGarbage(tenant: tenant) }
    /// ```
    func tenants() async throws -> [String]

    /// Frees what the store caches and can read again (a SQLite store's page caches): called by
    /// ``SyncHousekeeping`` before it hands the process's free memory back to the system. The default
    /// does nothing.
    func releaseMemory() async

    /// The store's identity, made once when it was created and the same for every server instance on
    /// it: the ``/BoutiqueSync/SyncServerID/store`` of every reply. The default, `nil`, leaves replies without one
    /// (devices then know the server by its address).
    func identity() async throws -> String?

    /// Which history of the store's log replies come from: the ``/BoutiqueSync/SyncServerID/history``
    /// of every reply. It stays while the log only grows and changes when the store is a copy served
    /// again (a backup restored), whose log positions past the copy hold other changes. The default,
    /// `nil`, leaves replies without one (devices then rely on what a push or a pull past the log's
    /// end tells them of a restore).
    func history() async throws -> String?

    /// Gives the store a new history: for a store restored by means that do not make one themselves (a
    /// copy of its files, a file-system snapshot, a PostgreSQL base backup), run once before it serves
    /// again. Every device then takes its state again at its next sync (see ``history()``).
    ///
    /// ```swift
    /// try await store.startNewHistory()
    /// ```
    func startNewHistory() async throws

    /// How many change-log entries the store holds, all tenants together (``/BoutiqueSyncServer/SyncServer/logEntryCount()``).
    /// The default reads every tenant's counters, one read per tenant; a store that can count for
    /// less (a directory of files, where each read opens a file) says how.
    func logEntryCount() async throws -> Int
}

extension SyncStore {
    /// Does nothing: the store caches nothing worth freeing.
    public func releaseMemory() async {}

    /// Every tenant's log entries (its latest sequence number past its log's horizon), one read per
    /// tenant.
    public func logEntryCount() async throws -> Int {
        var total = 0
        for tenant in try await tenants() {
            total += try await read(tenant: tenant) { transaction in Int(max(0, try transaction.latestSequence() - transaction.logHorizon())) }
        }
        return total
    }

    /// `nil`: the store keeps no identity.
    public func identity() async throws -> String? { nil }

    /// `nil`: the store keeps no history.
    public func history() async throws -> String? { nil }

    /// Throws ``/BoutiqueDB/BoutiqueError/invalidArgument(_:)``: the store keeps no history.
    public func startNewHistory() async throws {
        throw BoutiqueError.invalidArgument("this store keeps no history of its log")
    }

    /// Throws ``/BoutiqueDB/BoutiqueError/invalidArgument(_:)``: a store that keeps its tenants somewhere of its
    /// own says where by implementing this; the stores of this module do.
    public func tenants() async throws -> [String] {
        throw BoutiqueError.invalidArgument("the sync store \(type(of: self)) cannot list its tenants")
    }

    /// Runs `body` in ``transaction(tenant:_:)``: a store without a separate read path reads as it writes.
    public func read<T: Sendable>(
        tenant: String, _ body: @Sendable (any SyncStoreTransaction) throws -> T
    ) async throws -> T {
        try await transaction(tenant: tenant, body)
    }

    /// Does nothing: the store's commits all come through this process's server, which wakes its
    /// own long polls.
    public func observeCommits(_ wake: @escaping @Sendable (String) -> Void) async throws {}
}

/// A replica as the server knows it.
public struct ReplicaRecord: Hashable, Sendable {
    /// The replica's id.
    public var replica: String
    /// Its latest transaction applied (its watermark), 0 before the first.
    public var appliedThrough: Int64
    /// The digest of that transaction.
    public var digest: UInt64?
    /// The latest log position it has pulled to.
    public var cursor: Int64
    /// When it last pushed or pulled, in server milliseconds.
    public var lastSeen: UInt64
    /// Whether it gave its id up (restored or cloned device).
    public var isRetired: Bool
    /// The SHA-256 of the secret the replica id is bound to (its device's, from its first push that
    /// carried one); `nil` before that.
    public var secretHash: [UInt8]?

    /// A replica's record.
    public init(
        replica: String, appliedThrough: Int64, digest: UInt64?, cursor: Int64, lastSeen: UInt64, isRetired: Bool,
        secretHash: [UInt8]? = nil
    ) {
        self.secretHash = secretHash
        self.replica = replica
        self.appliedThrough = appliedThrough
        self.digest = digest
        self.cursor = cursor
        self.lastSeen = lastSeen
        self.isRetired = isRetired
    }
}

/// A change in a store's log, with where it came from.
public struct LoggedChange: Hashable, Sendable {
    /// The change and its sequence number.
    public var entry: ServerChange
    /// The server transaction it belongs to: the sequence number of that transaction's first change.
    public var batch: Int64
    /// The replica that pushed it (`SyncServer.serverReplica` for the resolver's changes).
    public var origin: String
    /// The space the change moved its row from, when it moved it (the entry's space is where it went).
    public var movedFrom: SyncSpace?

    /// A logged change.
    public init(entry: ServerChange, batch: Int64, origin: String, movedFrom: SyncSpace? = nil) {
        self.entry = entry
        self.batch = batch
        self.origin = origin
        self.movedFrom = movedFrom
    }

    /// The space of its row after the change.
    public var space: SyncSpace { entry.space ?? .common }
}

/// One transaction over a tenant's data, handed to ``SyncStore/transaction(tenant:_:)``'s body.
public protocol SyncStoreTransaction:
    SyncSpaceStoreTransaction, SyncRefusalStoreTransaction, SyncStagingStoreTransaction, SyncAttachmentRightsStoreTransaction
{
    /// The replica's record, `nil` for a replica never seen.
    func replica(_ id: String) throws -> ReplicaRecord?
    /// Every replica of the tenant.
    func replicas() throws -> [ReplicaRecord]
    /// Creates or replaces a replica's record.
    func setReplica(_ record: ReplicaRecord) throws

    /// The merged state of a row, `nil` when the server has none.
    func rowState(table: String, key: DatabaseValue) throws -> RowRegister?
    /// Stores a row's merged state, with the sequence number of the change that last set it.
    func setRowState(_ state: RowRegister, table: String, key: DatabaseValue, sequence: Int64) throws
    /// The sequence number of the change that last set a row's state, `nil` when the server has none.
    func rowSequence(table: String, key: DatabaseValue) throws -> Int64?
    /// Stores `state` in place of the state of a row the server holds, which says the same in other
    /// bytes (its collaborative texts compacted): the row's sequence number and placement stay, and
    /// nothing is logged.
    func replaceRowState(_ state: RowRegister, table: String, key: DatabaseValue) throws
    /// Rows in (table, key) order after `position`, tombstones included.
    func rows(after position: SnapshotPosition?, limit: Int) throws -> [SnapshotRow]
    /// The stored sizes of the rows' states, in bytes, of the rows ``rows(after:limit:)`` would return:
    /// a snapshot page counts them before it reads any state.
    func rowSizes(after position: SnapshotPosition?, limit: Int) throws -> [Int]
    /// How many rows the tenant has, tombstones included (the length of a snapshot); `nil` when the
    /// store cannot tell (the default).
    func rowCount() throws -> Int?
    /// Reads ahead the merged states of `rows`, which the transaction is about to read and change
    /// (a push's), so that each ``rowState(table:key:)`` after it costs no trip to the database; a
    /// hint a store may ignore (the default does).
    func prefetchRowStates(_ rows: [SnapshotPosition]) throws
    /// Removes deleted rows whose state was last set at or before `sequence`.
    func removeTombstones(through sequence: Int64) throws -> Int

    /// Appends a change to the log and returns its sequence number. `batch` is the sequence number of
    /// its transaction's first change, `nil` for the first change of a new one.
    func appendChange(_ change: SyncChange, origin: String, batch: Int64?) throws -> (sequence: Int64, batch: Int64)
    /// Changes after `sequence`, at least `limit` of them when there are, ending with a whole batch.
    func changes(after sequence: Int64, limit: Int) throws -> [LoggedChange]
    /// The changes in (`sequence`, `through`], whatever their batch: part of a server transaction too
    /// large for one pull page (a transaction a device sent in parts).
    func changes(after sequence: Int64, through: Int64) throws -> [LoggedChange]
    /// The server transactions ``changes(after:limit:)`` would return, in order, with the stored size of
    /// their changes: a pull page counts them before it reads any change. Only the first
    /// ``LogBatchSize/countedChanges(limit:)`` changes after `sequence` are counted: the last
    /// transaction may be counted only through them.
    func batchSizes(after sequence: Int64, limit: Int) throws -> [LogBatchSize]
    /// The latest sequence number handed out, 0 before the first.
    func latestSequence() throws -> Int64
    /// The position at and below which the log was removed: a cursor below it missed changes.
    func logHorizon() throws -> Int64
    /// Removes log entries at or below `sequence` and moves the horizon there.
    func pruneLog(through sequence: Int64) throws

    /// The server clock's latest reading for the tenant.
    func clock() throws -> HybridTimestamp
    /// Stores the server clock's latest reading.
    func setClock(_ time: HybridTimestamp) throws
}

extension SyncStoreTransaction {
    /// Unknown: snapshot pages then carry no total.
    public func rowCount() throws -> Int? { nil }

    /// Does nothing: each ``rowState(table:key:)`` reads its row.
    public func prefetchRowStates(_ rows: [SnapshotPosition]) throws {}
}
