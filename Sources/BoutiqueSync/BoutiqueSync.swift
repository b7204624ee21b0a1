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
/// print(sync.status.pendingCount)              // on the main actor
/// await sync.stop()
/// ```
///
/// Local writes go through the database as usual; each transaction touching a synced table is stamped
/// by a hybrid logical clock in the same transaction, by BoutiqueDB itself, in whatever process makes
/// it (an extension sharing the file, the app before it starts sync), and pushed later from the
/// change log. Pulled changes merge by the rule every device and the server share (per column, last
/// writer wins; a delete wins over older updates; a later insert revives), through the ordinary
/// writer, so live queries and the change feed see them. Nothing runs on the main thread: the work is on the
/// database's own threads and in sync's actor.
///
/// `status` lives on the main actor and is observable (`Observation`), so SwiftUI views that read it
/// update with it. What the merge discarded of this device's changes arrives in ``losses``; what the
/// server refused, in ``refusals``.
public final class BoutiqueSync: Sendable, Observable {
    let session: SyncSession
    private let database: DatabaseActor
    /// The synced tables, lowercased, as commit signals name them.
    private let syncedTables: Set<String>
    private let registrar = ObservationRegistrar()
    private let board = SyncStatusBoard()
    /// The background loop while started, and how to tell it that a local commit waits to be pushed.
    private let loop = Lock<(task: Task<Void, Never>, kick: AsyncStream<Void>.Continuation)?>(nil)
    /// Keep `status.pendingCount` current after every local commit, started or not: a handler on the
    /// commits (`stop` removes it) adds each local commit as it is made and asks a task to count after
    /// them (once for a burst of commits).
    private let commitWatchers = Lock<(counter: Task<Void, Never>, stop: @Sendable () -> Void)?>(nil)
    /// The shortest time between two counts of pending transactions after local commits.
    static let pendingCountInterval: Duration = .milliseconds(20)
    /// What `status.pendingCount` says: the last count and the local commits made since.
    private let pending = LivePendingCount()

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
        try await self.init(database: database.databaseActor, tables: tables, server: server, options: options)
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
        try await self.init(
            database: database, tables: tables.map { $0.tableName }, server: server, options: options,
            attachmentColumns: tables.flatMap { table in
                // JSON columns may hold attachments: the queue's triggers take only values of an attachment's shape.
                table.schema.filter { $0.groupedColumns == nil && $0.jsonValueForm == .json }.map { (table.tableName, $0.name) }
            })
    }

    /// Sets up sync of the tables named `tables` for a ``/BoutiqueDB/DatabaseActor``.
    ///
    /// ```swift
    /// let sync = try await BoutiqueSync(database: database, tables: ["note"], server: .inProcess(server))
    /// ```
    public convenience init(
        database: DatabaseActor, tables names: [String], server: some SyncTransport, options: SyncOptions = SyncOptions()
    ) async throws {
        try await self.init(database: database, tables: names, server: server, options: options, attachmentColumns: nil)
    }

    /// Sets up sync, recording `attachmentColumns` (table, column) as columns that hold attachments
    /// besides those recorded before, so that a process that names its tables without models (the
    /// command-line tool) queues their uploads too. Without models (`nil`), the columns of the synced
    /// tables that hold an attachment in some row are recorded.
    private init(
        database: DatabaseActor, tables names: [String], server: some SyncTransport, options: SyncOptions,
        attachmentColumns: [(String, String)]?
    ) async throws {
        let setup = try await SyncSetup.prepare(database: database, tables: names, options: options)
        let recorded: [String: [String]]
        do {
            let synced = Set(names.map { $0.lowercased() })
            let columns = attachmentColumns?.filter { synced.contains($0.0.lowercased()) }.map { (table: $0.0, column: $0.1) }
            recorded = try await database.write { conn in
                try AttachmentUploadQueue.record(columns: columns ?? AttachmentUploadQueue.found(in: names, conn), conn)
            }
        } catch {
            throw BoutiqueSync.boutiqueError(error)
        }
        self.database = database
        self.attachments = SyncAttachments(
            database: database, transport: server, options: options, syncedTables: Set(setup.tables.keys))
        self.syncedTables = Set(setup.tables.keys)
        self.session = SyncSession(
            database: database, transport: server, tables: setup.tables, options: options,
            replica: setup.replica, schemaVersion: setup.schemaVersion, foreignKeys: setup.foreignKeys,
            attachmentColumns: recorded)
        await session.setReporter(makeReporter())
        do {
            // Progress is kept by server: this address may have reached a server the file knows.
            try await session.resolveServerAlias()
            // Transactions written before the file was set up for sync get their commit time as stamp now,
            // so that they count as pending at once.
            try await session.stampUnstampedTransactions()
        } catch {
            throw BoutiqueSync.boutiqueError(error)
        }
        let hasSynced = (try? await session.serverState().bootstrapped) ?? false
        // Commits are followed from before the first count, so that none falls between the two.
        watchLocalCommits()
        await refreshPending()
        await updateStatus { $0.setHasSynced(hasSynced) }
    }

    /// The bytes of the database's attachments: fetch them, follow their transfers, upload what waits.
    /// See ``SyncAttachments``.
    ///
    /// ```swift
    /// try await sync.attachments.fetch(photo.image)
    /// ```
    public let attachments: SyncAttachments

    deinit {
        loop.withLock { $0?.task.cancel() }
        commitWatchers.withLock { watchers in
            watchers?.stop()
            watchers?.counter.cancel()
        }
        session.refusals.finish()
        session.losses.finish()
        session.departures.finish()
    }

    // MARK: Status

    /// What sync is doing, how much waits to be pushed, and whether and when it last synced.
    /// Observable; changes on the main actor.
    ///
    /// ```swift
    /// try await db.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES ('n1', 'Milk')") }
    /// print(sync.status.pendingCount)   // already counts the insert
    /// ```
    ///
    /// ``SyncStatus/pendingCount`` counts a local write to a synced table made through this database
    /// as soon as the write returns; observers hear of the new count a moment later, once it has
    /// been counted from the file (a burst of writes at most 50 times a second).
    @MainActor
    public var status: SyncStatus {
        registrar.access(self, keyPath: \.status)
        var status = board.status
        status.pendingCount = pending.value
        status.attachmentsWaitingToUpload = attachments.waiting
        status.attachmentsRefused = attachments.refusedCount
        status.attachmentsNotFetched = attachments.notFetchedCount
        return status
    }

    /// Every refusal of the server, as it happens: of one transaction (which sync undid locally and got
    /// past) or of the device (which stops background sync until the app acts). Refusals that come
    /// while nobody reads are kept for the first reader. A refused `share`, `unshare` or `members` call
    /// is thrown to its caller and is not here: it changed nothing.
    ///
    /// ```swift
    /// for await refusal in sync.refusals { print(refusal.reason, refusal.message) }
    /// ```
    public var refusals: AsyncStream<SyncRefusal> { session.refusals.stream() }

    /// Changes the status on the main actor, where observers of `status` see it change.
    private func updateStatus(_ change: @escaping @MainActor @Sendable (SyncStatusBoard) -> Void) async {
        await MainActor.run {
            registrar.withMutation(of: self, keyPath: \.status) { change(board) }
        }
    }

    private func makeReporter() -> SyncSessionReporter {
        SyncSessionReporter(
            phase: { [weak self] phase, started in
                await self?.updateStatus { started ? $0.begin(phase) : $0.end(phase) }
            },
            progress: { [weak self] progress in await self?.updateStatus { $0.setProgress(progress) } },
            refusal: { [weak self] refusal in await self?.updateStatus { $0.record(refusal) } })
    }

    /// Counts the pending transactions and tells observers when the count shown changed: an
    /// unchanged count costs no hop to the main actor.
    private func refreshPending() async {
        let attachmentsChanged = (try? await attachments.countWaiting()) ?? false
        guard let count = try? await session.pendingCount(), pending.counted(count) || attachmentsChanged else { return }
        await updateStatus { _ in }
    }

    /// After a push: uploads the attachments waiting, and with an eager policy fetches the missing
    /// ones, over a transport that carries attachments. A transfer that fails leaves its attachment
    /// for the next round (the status counts it) and fails nothing else: the rows synced, and a server
    /// that keeps no attachments still syncs them, as one that predates a feature does.
    private func moveAttachments() async {
        guard attachments.isAvailable else { return }
        _ = try? await attachments.uploadWaiting()
        if case .eager(let maxBytes) = session.options.attachments, await attachments.fetchMissing(upTo: maxBytes) {
            await updateStatus { _ in }
        }
        await refreshPending()
    }

    /// Shows a failure: a refusal as `.refused`, anything else as `.offline`.
    private func show(_ error: any Error) async {
        if let refusal = error as? SyncRefusal {
            await updateStatus { $0.setProblem(.refused(refusal)) }
            return
        }
        let failure = BoutiqueSync.boutiqueError(error)
        guard failure != .cancelled else { return }
        await updateStatus { $0.setProblem(.offline(failure)) }
    }

    /// Follows local commits to synced tables, in this process and (with
    /// ``/BoutiqueDB/DatabaseOptions/multiProcess``) others: the pending count follows each, and a
    /// started sync pushes.
    ///
    /// A commit of this process is added to the pending count on the writer's thread, before its write
    /// returns (BoutiqueDB stamped it: one more pending transaction). Counting from the file runs beside
    /// the commits rather than after each, at most once per ``pendingCountInterval``: the commits of a
    /// burst are counted together (once as it starts, once as it ends), so a write costs no count of
    /// its own and the main actor sees a handful of changes a second at most, about a screen's refresh
    /// rate. Which commits matter is decided on the thread that announces them, so a commit wakes no
    /// task: a request to count waits, coalesced, while the counter counts or rests, and a started
    /// sync's kick while it pushes.
    private func watchLocalCommits() {
        let synced = syncedTables
        let (pending, loop) = (self.pending, self.loop)
        let (countRequests, requestCount) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let counter = Task { [weak self] in
            for await _ in countRequests {
                let started = ContinuousClock.now
                guard let self else { return }
                await self.refreshPending()
                try? await Task.sleep(until: started + Self.pendingCountInterval)
            }
        }
        let stop = database.observeCommits({ commit in
            guard !commit.isRemote, commit.mayHaveChanged(anyOf: synced) else { return }
            // Another process's commit, or one whose tables are unknown, is left to the count.
            if !commit.isExternal, commit.tables != nil, let token = commit.token { pending.committedLocally(at: token) }
            requestCount.yield()
            loop.withLock { _ = $0?.kick.yield() }
        }, onClose: { requestCount.finish() })
        commitWatchers.withLock { $0 = (counter, stop) }
    }

    /// How many rows a bootstrap under way (stopped before its end) has merged, `nil` when none is
    /// under way: what a progress display starts from when the bootstrap resumes.
    package func resumedBootstrapRows() async -> Int? {
        try? await session.serverState().bootstrap?.rowsDone
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
    ///   nothing is lost), ``SyncRefusal`` when it refused (its ``SyncRefusal/reason`` says why),
    ///   ``/BoutiqueDB/BoutiqueError/syncSchemaChange(table:reason:)`` when a synced table changed in a way that is not
    ///   additive, and the database's own errors.
    public func synchronize() async throws -> SyncReport {
        do {
            let report = try await session.synchronize()
            await moveAttachments()
            await refreshPending()
            await updateStatus { $0.didSync(at: Date()) }
            return report
        } catch {
            await refreshPending()
            await show(error)
            throw BoutiqueSync.publicError(error)
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
            await refreshPending()
            return pushed
        } catch {
            await show(error)
            throw BoutiqueSync.publicError(error)
        }
    }

    /// Keeps syncing in the background until ``stop()``: pushes after local commits, pulls with a long
    /// poll, and retries after errors (``SyncOptions/retryInterval``). A refusal of the device itself
    /// (an invalid token that new credentials did not fix, an app too old) stops it: the status shows
    /// `.refused`, and calling `start()` again tries again.
    ///
    /// ```swift
    /// sync.start()
    /// ```
    ///
    /// Calling it while started does nothing.
    public func start() {
        loop.withLock { running in
            guard running == nil else { return }
            let (kicks, kick) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
            let task = Task { [weak self] in
                await self?.run(kicks: kicks)
                self?.loopEnded()
            }
            running = (task, kick)
        }
    }

    /// Stops background syncing and waits until the work in progress has stopped.
    ///
    /// ```swift
    /// await sync.stop()
    /// ```
    public func stop() async {
        let running = loop.withLock { running -> (task: Task<Void, Never>, kick: AsyncStream<Void>.Continuation)? in
            defer { running = nil }
            return running
        }
        running?.kick.finish()
        running?.task.cancel()
        await running?.task.value
    }

    /// Forgets the loop that ended on its own (a refusal of the device), so that `start()` starts anew.
    private func loopEnded() {
        guard !Task.isCancelled else { return }
        loop.withLock { running in
            running?.kick.finish()
            running = nil
        }
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
        do { try await session.checkSchema() } catch { throw BoutiqueSync.publicError(error) }
    }

    /// The background loop: a push after each local commit to a synced table, and a long-polling pull.
    /// Ends when cancelled or when the server refuses the device itself, and only once its pushes
    /// have stopped too, so that nothing changes the status after `stop()` returned.
    private func run(kicks: AsyncStream<Void>) async {
        let session = self.session
        let pushes = Task { [weak self] in
            for await _ in kicks {
                do {
                    _ = try await session.pushPending()
                    await self?.refreshPending()
                    await self?.moveAttachments()
                } catch {
                    if Task.isCancelled { return }
                    await self?.show(error)
                    if let refusal = error as? SyncRefusal, refusal.reason.stopsSync { return }
                }
            }
        }
        await pull()
        pushes.cancel()
        await pushes.value
    }

    /// The pulling half of ``run(kicks:)``: a first full sync, then long polls, with retries.
    private func pull() async {
        var first = true
        while !Task.isCancelled {
            do {
                if first {
                    _ = try await session.synchronize()
                    first = false
                } else {
                    _ = try await session.pullWaiting()
                }
                await moveAttachments()
                await refreshPending()
                await updateStatus { $0.didSync(at: Date()) }
            } catch {
                if Task.isCancelled { break }
                await refreshPending()
                await show(error)
                if let refusal = error as? SyncRefusal, refusal.reason.stopsSync { return }
                first = true
                try? await Task.sleep(for: session.options.retryInterval)
            }
        }
    }

    /// What the public API throws: a refusal as itself, everything else as a ``/BoutiqueDB/BoutiqueError``.
    static func publicError(_ error: any Error) -> any Error {
        if let refusal = error as? SyncRefusal { return refusal }
        return boutiqueError(error)
    }

    static func boutiqueError(_ error: any Error) -> BoutiqueError {
        switch error {
        case let error as BoutiqueError: error
        case let error as SQLiteError: BoutiqueError(error)
        case is CancellationError: .cancelled
        case let refusal as SyncRefusal: .syncRefused(reason: refusal.message)
        default: .syncUnavailable(reason: String(describing: error))
        }
    }
}
