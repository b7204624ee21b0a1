import Foundation
import Observation
import BoutiqueSQLite

/// Keeps a database's tables in sync with a server and, through it, with the user's other devices.
///
/// ```swift
/// let server = SyncServer(store: try await SQLiteSyncStore.open(url: BoutiqueDB.inMemoryURL()))
/// let sync = try await BoutiqueSync(database: db, tables: [Note.self, Tag.self], server: .inProcess(server))
///
/// let report = try await sync.synchronize()   // push, then pull until caught up
/// print(report.pushed, report.applied)
///
/// sync.start()                                 // keep syncing: push after local commits, pull continuously
/// print(sync.status.pendingCount)
/// await sync.stop()
/// ```
///
/// Local writes go through the database as usual; each transaction touching a synced table is stamped
/// by a hybrid logical clock in the same transaction, and pushed later from the change log. Pulled
/// changes merge by the rule every device and the server share (per column, last writer wins; a
/// delete wins over older updates; a later insert revives), through the ordinary writer, so live
/// queries and the change feed see them. Nothing runs on the main thread: the work is on the
/// database's own threads and in sync's actor.
///
/// `status` is observable (`Observation`), so SwiftUI views that read it update with it.
public final class BoutiqueSync: Sendable, Observable {
    let session: SyncSession
    private let database: DatabaseActor
    private let recorder: StampRecorder
    private let registrar = ObservationRegistrar()
    private let statusBox = Lock(SyncStatus())
    private let loop = Lock<Task<Void, Never>?>(nil)

    /// Sets up sync of `tables` (``/BoutiqueDB/Table`` types) with `server`.
    ///
    /// ```swift
    /// let sync = try await BoutiqueSync(database: db, tables: [Note.self, Tag.self], server: .inProcess(server))
    /// ```
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/syncConfiguration(table:reason:)`` naming a table that does not exist, has
    ///   no key unique across devices (an `INTEGER PRIMARY KEY`, a rowid-only or composite key, a key that
    ///   is not text or blob), or has `UNIQUE` constraints besides its key; also when the database does not
    ///   log full change images with unlimited retention (sync reads its outbox from the log). Nothing
    ///   is changed then.
    public convenience init(
        database: BoutiqueDB, tables: [any Table.Type], server: some SyncTransport, options: SyncOptions = SyncOptions()
    ) async throws {
        try await self.init(database: database.databaseActor, tables: tables.map { $0.tableName }, server: server, options: options)
    }

    /// Sets up sync of the tables named `tables` with `server`.
    ///
    /// ```swift
    /// let sync = try await BoutiqueSync(database: db, tables: ["note", "tag"], server: .inProcess(server))
    /// ```
    public convenience init(
        database: BoutiqueDB, tables: [String], server: some SyncTransport, options: SyncOptions = SyncOptions()
    ) async throws {
        try await self.init(database: database.databaseActor, tables: tables, server: server, options: options)
    }

    /// Sets up sync for a ``/BoutiqueDB/DatabaseActor`` (code without a main actor).
    ///
    /// ```swift
    /// let sync = try await BoutiqueSync(database: database, tables: [Note.self], server: .inProcess(server))
    /// ```
    public convenience init(
        database: DatabaseActor, tables: [any Table.Type], server: some SyncTransport, options: SyncOptions = SyncOptions()
    ) async throws {
        try await self.init(database: database, tables: tables.map { $0.tableName }, server: server, options: options)
    }

    /// Sets up sync of the tables named `tables` for a ``/BoutiqueDB/DatabaseActor``.
    ///
    /// ```swift
    /// let sync = try await BoutiqueSync(database: database, tables: ["note"], server: .inProcess(server))
    /// ```
    public init(
        database: DatabaseActor, tables names: [String], server: some SyncTransport, options: SyncOptions = SyncOptions()
    ) async throws {
        let setup = try await SyncSetup.prepare(database: database, tables: names, options: options)
        let recorder = StampRecorder(
            syncedTables: Set(setup.tables.keys), writer: options.makeIdentifier?() ?? SyncIdentity.newWriterID(), clock: setup.clock, now: options.now)
        await database.addTransactionParticipant(recorder)
        self.database = database
        self.recorder = recorder
        self.session = SyncSession(
            database: database, transport: server, tables: setup.tables, recorder: recorder, options: options,
            replica: setup.replica, schemaVersion: setup.schemaVersion, foreignKeys: setup.foreignKeys)
        let pending = (try? await session.pendingCount()) ?? 0
        statusBox.withLock { $0.pendingCount = pending }
    }

    deinit {
        loop.withLock { $0?.cancel() }
        let database = self.database
        let recorder = self.recorder
        Task { await database.removeTransactionParticipant(recorder) }
    }

    // MARK: Status

    /// What sync is doing, how much waits to be pushed, and when it last synced. Observable.
    public var status: SyncStatus {
        registrar.access(self, keyPath: \.status)
        return statusBox.withLock { $0 }
    }

    private func updateStatus(_ change: (inout SyncStatus) -> Void) {
        registrar.withMutation(of: self, keyPath: \.status) {
            statusBox.withLock { change(&$0) }
        }
    }

    /// This database's replica id: what the server knows it by (it changes after a restore from a
    /// backup or a copy to another device).
    public var replicaID: String {
        get async { await session.replica }
    }

    // MARK: Syncing

    /// Pushes every local change, then pulls until caught up.
    ///
    /// ```swift
    /// let report = try await sync.synchronize()
    /// ```
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/syncUnavailable(reason:)`` when the server did not answer (retry later;
    ///   nothing is lost), ``/BoutiqueDB/BoutiqueError/syncRefused(reason:)`` when it refused,
    ///   ``/BoutiqueDB/BoutiqueError/syncSchemaChange(table:reason:)`` when a synced table changed in a way that is not
    ///   additive, and the database's own errors.
    public func synchronize() async throws -> SyncReport {
        updateStatus { $0.activity = .syncing }
        do {
            let report = try await session.synchronize()
            let pending = (try? await session.pendingCount()) ?? 0
            updateStatus {
                $0.activity = .idle
                $0.pendingCount = pending
                $0.lastSync = Date()
            }
            return report
        } catch {
            let failure = BoutiqueSync.boutiqueError(error)
            let pending = try? await session.pendingCount()
            updateStatus {
                $0.activity = .offline(failure)
                if let pending { $0.pendingCount = pending }
            }
            throw failure
        }
    }

    /// Pushes every local change without pulling, and returns how many row changes the server newly
    /// acknowledged: for a background task that must hand over local work before the app suspends.
    ///
    /// ```swift
    /// let pushed = try await sync.push()
    /// ```
    ///
    /// - Throws: as ``synchronize()``.
    public func push() async throws -> Int {
        do {
            let pushed = try await session.pushPending()
            let pending = (try? await session.pendingCount()) ?? 0
            updateStatus { $0.pendingCount = pending }
            return pushed
        } catch {
            let failure = BoutiqueSync.boutiqueError(error)
            updateStatus { $0.activity = .offline(failure) }
            throw failure
        }
    }

    /// Keeps syncing in the background until ``stop()``: pushes after local commits, pulls with a long
    /// poll, and retries after errors (``SyncOptions/retryInterval``).
    ///
    /// ```swift
    /// sync.start()
    /// ```
    ///
    /// Calling it while started does nothing.
    public func start() {
        loop.withLock { task in
            guard task == nil else { return }
            task = Task { [weak self] in await self?.run() }
        }
    }

    /// Stops background syncing and waits until the work in progress has stopped.
    ///
    /// ```swift
    /// await sync.stop()
    /// ```
    public func stop() async {
        let task = loop.withLock { task -> Task<Void, Never>? in
            defer { task = nil }
            return task
        }
        task?.cancel()
        await task?.value
        updateStatus { if case .syncing = $0.activity { $0.activity = .idle } }
    }

    /// Checks that the synced tables changed only additively since sync last checked (new tables,
    /// new nullable or defaulted columns), and records their shapes. Run it in the app's tests after
    /// writing a migration.
    ///
    /// ```swift
    /// try await sync.checkSchema()
    /// ```
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/syncSchemaChange(table:reason:)`` naming the table and the change.
    public func checkSchema() async throws {
        do { try await session.checkSchema() } catch { throw BoutiqueSync.boutiqueError(error) }
    }

    /// The background loop: a push after each local commit to a synced table, and a long-polling pull.
    private func run() async {
        let database = self.database
        let synced = recorder.syncedTables
        let session = self.session
        let pushes = Task { [weak self] in
            guard let start = try? await database.currentToken() else { return }
            do {
                for try await transaction in database.changes(since: start) {
                    guard !transaction.tables.isDisjoint(with: synced) else { continue }
                    do {
                        _ = try await session.pushPending()
                        await self?.refreshPending(activity: nil)
                    } catch let error as BoutiqueError where error == .cancelled {
                        return
                    } catch {
                        await self?.refreshPending(activity: .offline(BoutiqueSync.boutiqueError(error)))
                    }
                }
            } catch {
                return
            }
        }
        defer { pushes.cancel() }
        var first = true
        while !Task.isCancelled {
            do {
                // A device that is offline stays so until an attempt succeeds, instead of flickering.
                updateStatus { if !$0.isOffline { $0.activity = .syncing } }
                if first {
                    _ = try await session.synchronize()
                    first = false
                } else {
                    _ = try await session.pullWaiting()
                }
                await refreshPending(activity: .idle, synced: true)
            } catch {
                if Task.isCancelled { break }
                await refreshPending(activity: .offline(BoutiqueSync.boutiqueError(error)))
                first = true
                try? await Task.sleep(for: session.options.retryInterval)
            }
        }
    }

    private func refreshPending(activity: SyncStatus.Activity?, synced: Bool = false) async {
        let pending = (try? await session.pendingCount()) ?? 0
        updateStatus {
            if let activity { $0.activity = activity }
            $0.pendingCount = pending
            if synced { $0.lastSync = Date() }
        }
    }

    static func boutiqueError(_ error: any Error) -> BoutiqueError {
        switch error {
        case let error as BoutiqueError: error
        case let error as SQLiteError: BoutiqueError(error)
        case is CancellationError: .cancelled
        default: .syncUnavailable(reason: String(describing: error))
        }
    }
}
