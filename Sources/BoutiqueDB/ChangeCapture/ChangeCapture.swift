import BoutiqueSQLite

/// Records every change made through the writer connection in `turso_cdc`, in the transaction that
/// makes it, in Turso's v2 format.
///
/// ```swift
/// let capture = try ChangeCapture(connection: writer, options: .default, notifier: notifier, tracksLocalCommits: false)
/// database.observers.capture = capture
/// // every write now also appends its changes and a COMMIT row to turso_cdc
/// ```
///
/// How: SQLite's preupdate hook reports each row change in a rowid or `WITHOUT ROWID` table with its old
/// and new values, whatever ran it (query builder, raw SQL, migrations, triggers), including tables
/// created after the hook was installed. The changes wait in memory (an insert's or delete's record is
/// encoded at once when the table is known); ``willCommit(_:)`` encodes the rest and appends them with
/// one COMMIT row, still inside the transaction, so a rollback leaves no trace and a commit is never
/// without its log. Three things the hook does not see are filled in:
/// changes SQLite undid (a failed statement, `ROLLBACK TO`), found through statement boundaries
/// (``StatementStartObserver``); schema changes, found when each schema statement ends by comparing
/// `sqlite_schema` with its state before (``SchemaSnapshot``), and logged where the statement ran, so
/// that a reader replaying the log meets each change between the row changes made before and after it;
/// and rows written by `CREATE TABLE … AS SELECT`, read from the new table. The writer alone writes, so
/// it alone needs the hook: triggers on every table would cost a second write per change and have to be
/// created for every new table.
///
/// Not logged row by row: tables of attached and temporary databases (only `main` is shared); the rows
/// `ALTER TABLE … DROP COLUMN` rewrites (SQLite rewrites them without the hook; the table's schema row
/// carries the `ALTER TABLE` statement, which rewrites them the same way when a reader runs it, and later
/// images have the new layout); and the rows of a dropped table, which go with its schema row (with
/// foreign keys on, SQLite first deletes them one by one, and those deletes and their cascades are logged).
///
/// It says what each commit changed (``CapturedTransaction/notice``) and hands the notices of the
/// commits that became final over (``takeCommitNotices(into:)``); ``CommitAnnouncer`` publishes them.
///
/// Everything runs on the writer's thread, inside the ``DatabaseActor``'s isolation.
final class ChangeCapture: WriteTransactionObserver, StatementStartObserver {
    /// Changes committed outside a managed transaction (`writeWithoutTransaction`), logged afterwards.
    struct CommittedGroup {
        var changes: [CapturedChange]
        var tables: Set<String>
        var statementTexts: [String]
        var bytes: [UInt8]
    }

    let options: ChangeCaptureOptions
    var mode: ChangeCaptureMode { options.mode }
    let notifier: ChangeNotifier
    /// Whether the external-change monitor runs and needs to tell this process's commits apart.
    let tracksLocalCommits: Bool
    /// The writer's statements as SQLite sees them, asked about on every statement.
    let probe: StatementProbe
    /// The connection, to take the hooks off when the capture goes first.
    weak var attachedConnection: Connection?

    // What the hooks touch on every row change or statement opts out of the runtime's dynamic
    // exclusivity checks, which showed in profiles of bulk inserts: the capture is only ever used on
    // the writer's thread, one hook call at a time.
    /// The transaction in progress, changed in place (see ``CapturedTransaction``).
    @exclusivity(unchecked) var transaction = CapturedTransaction()
    /// Set while the capture itself writes, or lends the writer to others, so that those statements
    /// are not captured.
    @exclusivity(unchecked) var isWritingLog = false
    var committedGroups: [CommittedGroup] = []
    /// Where the transaction in progress comes from, for its notice.
    var transactionOrigin: TransactionOrigin = .local

    // Between transactions.
    /// What the writer knew of the file after its last managed commit; `nil` after anything else.
    var committedState: CommittedFileState?
    /// The committed schema.
    var schema: SchemaSnapshot?
    var schemaVersionAtBegin: Int64 = 0
    /// The schema version `willCommit` found, kept until the commit.
    var schemaVersionAtCommit: Int64 = 0
    /// The `schema_version` the transaction's statements have left so far (the live schema's).
    @exclusivity(unchecked) var liveSchemaVersion: Int64 = 0
    var layouts: [String: TableLayout] = [:]
    var layoutsVersion: Int64 = -1
    /// Whether ``layouts`` holds every table of the schema (read at the start of a transaction), not
    /// only those a commit needed.
    var layoutsAreComplete = false
    var assignedColumns = AssignedColumns()
    var commitsSincePrune = 0
    /// The commits logged ahead of the transaction's own, found by `willCommit`, kept until it ends.
    var groupNotices: [CommitNotice] = []
    /// The notices of the commits that became final and are not announced yet, oldest first (see
    /// ``takeCommitNotices(into:)``).
    private var finishedNotices: [CommitNotice] = []

    /// What `willCommit` found the committing transaction changed, for the observers after it.
    var notice: CommitNotice? { transaction.notice }
    /// The `change_txn_id` of the committing transaction's log rows, for the observers after it.
    var transactionID: Int64? { transaction.transactionID }

    init(connection: Connection, options: ChangeCaptureOptions, notifier: ChangeNotifier, tracksLocalCommits: Bool) throws {
        self.probe = try StatementProbe(connection)
        self.attachedConnection = connection
        self.options = options
        self.notifier = notifier
        self.tracksLocalCommits = tracksLocalCommits
        if options.mode.writesLog {
            try ChangeLogSchema.prepare(connection)
            try connection.setStatementStartObserver(self)
            connection.reportStatementEnds(to: self)
        }
        // Neither weak nor checked-unowned: a weak reference puts every retain of the capture on Swift's
        // slow path, and a checked one costs two atomic operations, on every row change. The hooks come
        // off in `detach()` or `deinit`, before the capture goes, so the reference never dangles.
        try connection.setCommitHook { [unowned(unsafe) self] in
            self.transactionWillCommit()
            return false
        }
        try connection.setRollbackHook { [unowned(unsafe) self] in self.transactionDidRollBack() }
        try connection.setPreupdateHook { [unowned(unsafe) self] change in self.capture(change) }
    }

    deinit {
        detach()
    }

    /// Takes the hooks off the connection (the database is closing).
    func detach() {
        guard let connection = attachedConnection, !connection.isClosed else { return }
        try? connection.setStatementStartObserver(nil)
        connection.reportStatementEnds(to: nil)
        try? connection.setPreupdateHook(nil)
        try? connection.setCommitHook(nil)
        try? connection.setRollbackHook(nil)
    }

    // MARK: WriteTransactionObserver

    func willBegin(origin: TransactionOrigin) { transactionOrigin = origin }

    func didBegin(_ connection: Connection) throws {
        resetTransaction()
        committedGroups.removeAll()
        transaction.isInManagedTransaction = true
        transaction.stateAtBegin = committedState?.ifUnchanged(on: connection)
        committedState = nil
        schemaVersionAtBegin = try transaction.stateAtBegin?.schemaVersion ?? SchemaSnapshot.schemaVersion(connection)
        liveSchemaVersion = schemaVersionAtBegin
        guard mode.writesLog else { return }
        if schema?.version != schemaVersionAtBegin {
            schema = try SchemaSnapshot.read(connection)
        }
        transaction.liveSchema = schema
        if layoutsVersion != schemaVersionAtBegin || !layoutsAreComplete, let schema {
            try readLayouts(of: schema, on: connection)
        }
    }

    /// Reads the layout of every table of `schema`, once per schema: then the hook can encode as it
    /// captures.
    func readLayouts(of schema: SchemaSnapshot, on connection: Connection) throws(SQLiteError) {
        layouts.removeAll()
        layoutsVersion = schema.version
        layoutsAreComplete = true
        for object in schema.objects.values where object.values.first == .text("table") {
            guard case .text(let table) = object.values[1] else { continue }
            if let layout = try TableLayout.read(table, from: connection) { layouts[table] = layout }
        }
    }

    func willCommit(_ connection: Connection) throws {
        resolveFinishedStatements()
        transaction.notice = nil
        transaction.schemaAtCommit = nil
        // Statements are watched only while the log is written; unwatched, any may have changed it.
        let version =
            mode.writesLog && !transaction.mayHaveChangedSchema
            ? schemaVersionAtBegin : try SchemaSnapshot.schemaVersion(connection)
        if version != schemaVersionAtBegin { transaction.touchedTables.insert("sqlite_schema") }
        schemaVersionAtCommit = version
        // Rows logged before this transaction's (below) or not by the capture move the next id on.
        let knownNextID =
            committedGroups.isEmpty && !transaction.logWrittenDirectly ? transaction.stateAtBegin?.nextChangeID : nil
        transaction.nextChangeIDAtCommit = knownNextID
        guard mode.writesLog else {
            if !transaction.touchedTables.isEmpty {
                transaction.notice = CommitNotice(token: nil, tables: transaction.touchedTables, isExternal: false)
            }
            groupNotices = committedGroups.map { CommitNotice(token: nil, tables: $0.tables, isExternal: false) }
            transaction.expectsManagedCommit = true
            return
        }
        var changes = transaction.pending
        if let before = transaction.liveSchema ?? schema {
            if version != before.version {
                // A schema statement whose end was not seen (stepped through a raw handle): its changes go
                // where the first such statement started.
                let after = try SchemaSnapshot.read(connection)
                transaction.schemaAtCommit = after
                changes = try withSchemaChanges(changes, from: before, to: after, on: connection)
            } else if version != schemaVersionAtBegin {
                transaction.schemaAtCommit = before
            }
        }
        isWritingLog = true
        defer { isWritingLog = false }
        // Statements that committed on their own before this transaction began (SQLite rolled the
        // closure's transaction back, an `OR ROLLBACK`, and a `SAVEPOINT` began this one) come first.
        // They stay set aside until the commit: a rollback logs them on their own.
        if !committedGroups.isEmpty { groupNotices = try appendLogRows(of: committedGroups, on: connection) }
        // A large transaction's records are handed to the batch, which then grows without copying
        // them; a small one's are copied, and the buffer keeps its capacity for the next transaction.
        let captured = transaction.capturedBytes
        if captured.count >= CapturedTransaction.keptCaptureCapacity { transaction.capturedBytes = [] }
        let rows = try logRows(
            for: changes, texts: transaction.statementTexts, bytes: captured, schemaVersion: version, on: connection)
        guard !rows.isEmpty else {
            if !transaction.touchedTables.isEmpty {
                transaction.notice = CommitNotice(token: nil, tables: transaction.touchedTables, isExternal: false)
            }
            transaction.expectsManagedCommit = true
            return
        }
        let firstID = try knownNextID ?? ChangeLogWriter.nextID(on: connection)
        let commitID = try ChangeLogWriter.append(rows, firstID: firstID, time: ChangeLogWriter.now(), on: connection)
        transaction.transactionID = firstID
        transaction.nextChangeIDAtCommit = commitID + 1
        try pruneIfDue(connection)
        if tracksLocalCommits { notifier.willCommitLocally(commitID) }
        transaction.notice = CommitNotice(
            token: ChangeToken(changeID: commitID), tables: transaction.touchedTables, isExternal: false)
        transaction.expectsManagedCommit = true
    }

    func didCommit(_ connection: Connection) {
        if let schemaAtCommit = transaction.schemaAtCommit { schema = schemaAtCommit }
        committedState = (try? connection.fileDataVersion()).map {
            CommittedFileState(
                dataVersion: $0, schemaVersion: schemaVersionAtCommit, nextChangeID: transaction.nextChangeIDAtCommit)
        }
        // In commit order: the commits logged ahead of the transaction's own, then its own.
        finishedNotices.append(contentsOf: groupNotices)
        if var own = transaction.notice {
            own.isRemote = transactionOrigin == .remote
            finishedNotices.append(own)
        }
        groupNotices = []
        committedGroups.removeAll()
        resetTransaction()
    }

    func didRollback(_ connection: Connection) {
        if tracksLocalCommits, let token = transaction.notice?.token { notifier.didNotCommitLocally(token.changeID) }
        if tracksLocalCommits { for token in groupNotices.compactMap(\.token) { notifier.didNotCommitLocally(token.changeID) } }
        groupNotices = []
        resetTransaction()
        // Statements the closure ran after ending the transaction itself committed on their own.
        logCommittedGroups(connection)
    }

    func willWriteOutsideTransaction(_ connection: Connection) {
        resetTransaction()
        committedState = nil
        guard mode.writesLog, let version = try? SchemaSnapshot.schemaVersion(connection) else { return }
        // Another process may have changed the schema since this one last looked: each schema statement
        // is compared with the schema as it is now.
        if schema?.version != version, let current = try? SchemaSnapshot.read(connection) { schema = current }
        if layoutsVersion != version || !layoutsAreComplete, let schema { try? readLayouts(of: schema, on: connection) }
        liveSchemaVersion = version
    }

    func didWriteOutsideTransaction(_ connection: Connection) {
        logCommittedGroups(connection)
        resetTransaction()
    }

    /// Forgets the transaction in progress: every field starts over, and only the buffers' storage is
    /// kept for the next one.
    func resetTransaction() {
        transaction = CapturedTransaction(reusingBuffersOf: &transaction)
    }

    // MARK: Handing commits over

    /// Records that the commits of `notices` became final, to be announced in this order.
    func commitsBecameFinal(_ notices: [CommitNotice]) {
        finishedNotices.append(contentsOf: notices)
    }

    /// Moves the notices of the commits that became final since the last call into `notices`, which
    /// must be empty, oldest first.
    ///
    /// The two arrays trade storage instead of copying, so that neither allocates again for the next
    /// commit.
    func takeCommitNotices(into notices: inout [CommitNotice]) {
        swap(&notices, &finishedNotices)
    }

    /// Runs `body`, whose statements on the writer connection are not the user's (live queries
    /// refreshing on it as a commit is announced): the hooks let them pass, as they do the log's own.
    func withoutCapturing(_ body: () -> Void) {
        isWritingLog = true
        defer { isWritingLog = false }
        body()
    }
}
