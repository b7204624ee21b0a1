import BoutiqueSQLite

/// Records every change made through the writer connection in `turso_cdc`, in the transaction that
/// makes it, in Turso's v2 format.
///
/// ```swift
/// let capture = try ChangeCapture(connection: writer, options: .default, notifier: notifier, tracksLocalCommits: false)
/// database.addTransactionObserver(capture)
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
/// Everything runs on the writer's thread, inside the ``DatabaseActor``'s isolation.
final class ChangeCapture: WriteTransactionObserver, StatementStartObserver {
    /// A statement between its start and its end.
    struct Frame {
        let statement: OpaquePointer
        /// The number of pending changes when it started.
        var mark: Int
        /// The number of pending changes when the next statement started: its own changes end there.
        var end: Int?
        /// `sqlite3_total_changes64` when it started.
        let totalChanges: Int64
        /// Its counters when it started, to tell a program it starts from a new run of it.
        let progress: StatementProgress
        /// Its SQL text's index in ``statementTexts``, once an update needed it.
        var textIndex: Int32 = -1
    }

    /// A statement that may change the schema, running; its end is awaited to log what it changed.
    struct SchemaStatement {
        let statement: OpaquePointer
        /// Its SQL text, for an `ALTER TABLE` the value its table's schema row logs as the new `sql`.
        let text: String
        /// The table an `ALTER TABLE` alters, lowercased.
        let alteredTable: String?
        /// `ROLLBACK TO`, which may take back schema changes: nothing is logged, the schema is read again.
        let isRollback: Bool
    }

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
    /// The writer connection and time each commit lends quick live queries as it is announced (one
    /// object, since only the writer's thread publishes with it).
    private let refresh: CommitRefresh
    /// Whether the external-change monitor runs and needs to tell this process's commits apart.
    let tracksLocalCommits: Bool
    /// The writer's statements as SQLite sees them, asked about on every statement.
    let probe: StatementProbe
    /// The connection, to take the hooks off when the capture goes first.
    weak var attachedConnection: Connection?

    // The transaction in progress. What the hooks touch on every row change or statement opts out of
    // the runtime's dynamic exclusivity checks, which showed in profiles of bulk inserts: the capture
    // is only ever used on the writer's thread, one hook call at a time.
    @exclusivity(unchecked) var pending: [CapturedChange] = []
    /// The records encoded while capturing (see ``CapturedChange/encoded``).
    @exclusivity(unchecked) var capturedBytes: [UInt8] = []
    @exclusivity(unchecked) var touchedTables: Set<String> = []
    @exclusivity(unchecked) var lastTouchedTable = ""
    /// Whether ``lastTouchedTable`` is logged (a table of the main database, not the log's own).
    @exclusivity(unchecked) var lastTableIsLogged = false
    /// The layout of ``lastTouchedTable`` when it is known for the schema the change sees, so that its
    /// inserts and deletes are encoded as they are captured.
    @exclusivity(unchecked) var lastTableLayout: TableLayout?
    @exclusivity(unchecked) var frames: [Frame] = []
    var savepoints: [(name: String, mark: Int)] = []
    /// The schema statement whose end is awaited.
    @exclusivity(unchecked) var runningSchemaStatement: SchemaStatement?
    var statementTexts: [String] = []
    /// Where the first statement that may change the schema started, to place schema changes there.
    @exclusivity(unchecked) var schemaMark: Int?
    var isInManagedTransaction = false
    /// Set once `willCommit` is done: the next commit is the managed transaction's own.
    var expectsManagedCommit = false
    /// Set while the capture itself writes, so that its own statements are not captured.
    @exclusivity(unchecked) var isWritingLog = false
    /// Set when a statement that may change the schema started (watched only while the log is
    /// written): without one, the schema version at commit is the one at the start.
    @exclusivity(unchecked) var mayHaveChangedSchema = false
    /// Set when something other than the capture wrote the log or its counter: its next id is read again.
    @exclusivity(unchecked) var logWrittenDirectly = false
    /// What the last commit left, when nothing has changed the file since (read at the start).
    var stateAtBegin: CommittedFileState?
    /// The log's next id once this transaction's rows are appended, kept from `willCommit` to the commit.
    var nextChangeIDAtCommit: Int64?
    /// The id of the transaction's first log row (its `change_txn_id`), once `willCommit` appended them.
    var transactionID: Int64?
    var committedGroups: [CommittedGroup] = []
    /// Where the transaction in progress comes from, for its notice.
    var transactionOrigin: TransactionOrigin = .local

    /// The schema as the transaction's statements have left it so far.
    var liveSchema: SchemaSnapshot?

    // Between transactions.
    /// What the writer knew of the file after its last managed commit; `nil` after anything else.
    var committedState: CommittedFileState?
    /// The committed schema.
    var schema: SchemaSnapshot?
    var schemaVersionAtBegin: Int64 = 0
    /// The schema version `willCommit` found, kept until the commit.
    var schemaVersionAtCommit: Int64 = 0
    /// The `schema_version` the transaction's statements have left so far (``liveSchema``'s).
    @exclusivity(unchecked) var liveSchemaVersion: Int64 = 0
    /// The schema as this transaction leaves it, kept from `willCommit` until it commits.
    var schemaAtCommit: SchemaSnapshot?
    var layouts: [String: TableLayout] = [:]
    var layoutsVersion: Int64 = -1
    /// Whether ``layouts`` holds every table of the schema (read at the start of a transaction), not
    /// only those a commit needed.
    var layoutsAreComplete = false
    var assignedColumns = AssignedColumns()
    var commitsSincePrune = 0
    /// What `didCommit` announces.
    var notice: CommitNotice?
    /// What `didCommit` announces first: the commits logged ahead of the transaction's own.
    var groupNotices: [CommitNotice] = []

    init(
        connection: Connection, options: ChangeCaptureOptions, notifier: ChangeNotifier, tracksLocalCommits: Bool,
        refreshLimits: CommitRefresh.Limits = .standard
    ) throws {
        self.probe = try StatementProbe(connection)
        self.refresh = CommitRefresh(limits: refreshLimits)
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
        isInManagedTransaction = true
        stateAtBegin = committedState?.ifUnchanged(on: connection)
        committedState = nil
        schemaVersionAtBegin = try stateAtBegin?.schemaVersion ?? SchemaSnapshot.schemaVersion(connection)
        liveSchemaVersion = schemaVersionAtBegin
        guard mode.writesLog else { return }
        if schema?.version != schemaVersionAtBegin {
            schema = try SchemaSnapshot.read(connection)
        }
        liveSchema = schema
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
        notice = nil
        schemaAtCommit = nil
        // Statements are watched only while the log is written; unwatched, any may have changed it.
        let version = mode.writesLog && !mayHaveChangedSchema ? schemaVersionAtBegin : try SchemaSnapshot.schemaVersion(connection)
        if version != schemaVersionAtBegin { touchedTables.insert("sqlite_schema") }
        schemaVersionAtCommit = version
        // Rows logged before this transaction's (below) or not by the capture move the next id on.
        let knownNextID = committedGroups.isEmpty && !logWrittenDirectly ? stateAtBegin?.nextChangeID : nil
        nextChangeIDAtCommit = knownNextID
        guard mode.writesLog else {
            if !touchedTables.isEmpty { notice = CommitNotice(token: nil, tables: touchedTables, isExternal: false) }
            groupNotices = committedGroups.map { CommitNotice(token: nil, tables: $0.tables, isExternal: false) }
            expectsManagedCommit = true
            return
        }
        var changes = pending
        if let before = liveSchema ?? schema {
            if version != before.version {
                // A schema statement whose end was not seen (stepped through a raw handle): its changes go
                // where the first such statement started.
                let after = try SchemaSnapshot.read(connection)
                schemaAtCommit = after
                changes = try withSchemaChanges(changes, from: before, to: after, on: connection)
            } else if version != schemaVersionAtBegin {
                schemaAtCommit = before
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
        let captured = capturedBytes
        if captured.count >= Self.keptCaptureCapacity { capturedBytes = [] }
        let rows = try logRows(for: changes, texts: statementTexts, bytes: captured, schemaVersion: version, on: connection)
        guard !rows.isEmpty else {
            if !touchedTables.isEmpty { notice = CommitNotice(token: nil, tables: touchedTables, isExternal: false) }
            expectsManagedCommit = true
            return
        }
        let firstID = try knownNextID ?? ChangeLogWriter.nextID(on: connection)
        let commitID = try ChangeLogWriter.append(rows, firstID: firstID, time: ChangeLogWriter.now(), on: connection)
        transactionID = firstID
        nextChangeIDAtCommit = commitID + 1
        try pruneIfDue(connection)
        if tracksLocalCommits { notifier.willCommitLocally(commitID) }
        notice = CommitNotice(token: ChangeToken(changeID: commitID), tables: touchedTables, isExternal: false)
        expectsManagedCommit = true
    }

    func didCommit(_ connection: Connection) {
        if let schemaAtCommit { schema = schemaAtCommit }
        committedState = (try? connection.fileDataVersion()).map {
            CommittedFileState(dataVersion: $0, schemaVersion: schemaVersionAtCommit, nextChangeID: nextChangeIDAtCommit)
        }
        // Announced in order: the commits logged ahead of the transaction's own, then its own.
        let earlier = groupNotices
        let own = notice
        groupNotices = []
        committedGroups.removeAll()
        resetTransaction()
        // Published on the writer's thread, just after COMMIT: quick live queries refresh here, on this
        // connection. Their statements are not the user's: the hooks let them pass, as the log's own.
        refresh.begin(on: connection)
        isWritingLog = true
        defer {
            isWritingLog = false
            refresh.end()
        }
        func announce(_ notice: CommitNotice) {
            var notice = notice
            notice.refresh = refresh
            notifier.publish(notice)
        }
        earlier.forEach(announce)
        if var own {
            own.isRemote = transactionOrigin == .remote
            announce(own)
        }
    }

    func didRollback(_ connection: Connection) {
        if tracksLocalCommits, let token = notice?.token { notifier.didNotCommitLocally(token.changeID) }
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

    /// The size up to which the captured records' buffer is kept from one transaction to the next.
    static let keptCaptureCapacity = 1 << 16

    /// Forgets the transaction in progress.
    func resetTransaction() {
        pending.removeAll(keepingCapacity: pending.count < 4096)
        capturedBytes.removeAll(keepingCapacity: capturedBytes.count < Self.keptCaptureCapacity)
        touchedTables.removeAll()
        lastTouchedTable = ""
        lastTableIsLogged = false
        lastTableLayout = nil
        frames.removeAll()
        savepoints.removeAll()
        statementTexts.removeAll()
        schemaMark = nil
        runningSchemaStatement = nil
        liveSchema = nil
        isInManagedTransaction = false
        expectsManagedCommit = false
        notice = nil
        schemaAtCommit = nil
        mayHaveChangedSchema = false
        logWrittenDirectly = false
        stateAtBegin = nil
        nextChangeIDAtCommit = nil
        transactionID = nil
    }
}
