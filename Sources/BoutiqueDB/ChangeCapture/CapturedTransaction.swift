import BoutiqueSQLite

/// What ``ChangeCapture`` knows of the write transaction in progress: its captured changes, the
/// statements running, and what `willCommit` found for the commit.
///
/// ```swift
/// transaction.pending.append(change)                         // in place, from the preupdate hook
/// transaction = CapturedTransaction(reusingBuffersOf: &transaction)   // the transaction ended
/// ```
///
/// One value, so that forgetting a transaction is one assignment and a field added here starts over
/// with every transaction without being named anywhere else. The capture holds it in one stored
/// property and the hooks change it in place through that property: a copy of it would copy (or
/// retain) every buffer on the hot path, which runs on every row change.
struct CapturedTransaction {
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
        /// Its SQL text's index in ``CapturedTransaction/statementTexts``, once an update needed it.
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

    /// The size up to which the captured records' buffer is kept from one transaction to the next.
    static let keptCaptureCapacity = 1 << 16
    /// The number of changes up to which the changes' buffer is kept from one transaction to the next.
    static let keptPendingCapacity = 4096

    var pending: [CapturedChange] = []
    /// The records encoded while capturing (see ``CapturedChange/encoded``).
    var capturedBytes: [UInt8] = []
    var touchedTables: Set<String> = []
    var lastTouchedTable = ""
    /// Whether ``lastTouchedTable`` is logged (a table of the main database, not the log's own).
    var lastTableIsLogged = false
    /// The layout of ``lastTouchedTable`` when it is known for the schema the change sees, so that its
    /// inserts and deletes are encoded as they are captured.
    var lastTableLayout: TableLayout?
    var frames: [Frame] = []
    var savepoints: [(name: String, mark: Int)] = []
    var statementTexts: [String] = []
    /// Where the first statement that may change the schema started, to place schema changes there.
    var schemaMark: Int?
    /// The schema statement whose end is awaited.
    var runningSchemaStatement: SchemaStatement?
    /// The schema as the transaction's statements have left it so far.
    var liveSchema: SchemaSnapshot?
    var isInManagedTransaction = false
    /// Set once `willCommit` is done: the next commit is the managed transaction's own.
    var expectsManagedCommit = false
    /// What the commit announces, once `willCommit` found it.
    var notice: CommitNotice?
    /// The schema as this transaction leaves it, kept from `willCommit` until it commits.
    var schemaAtCommit: SchemaSnapshot?
    /// Set when a statement that may change the schema started (watched only while the log is
    /// written): without one, the schema version at commit is the one at the start.
    var mayHaveChangedSchema = false
    /// Set when something other than the capture wrote the log or its counter: its next id is read again.
    var logWrittenDirectly = false
    /// What the last commit left, when nothing has changed the file since (read at the start).
    var stateAtBegin: CommittedFileState?
    /// The log's next id once this transaction's rows are appended, kept from `willCommit` to the commit.
    var nextChangeIDAtCommit: Int64?
    /// The id of the transaction's first log row (its `change_txn_id`), once `willCommit` appended them.
    var transactionID: Int64?

    init() {}

    /// A transaction with nothing captured that takes over the storage of `finished`'s change and
    /// record buffers, emptied, unless they grew large: a one-row write then allocates neither again.
    init(reusingBuffersOf finished: inout CapturedTransaction) {
        // Swapped, not copied: a copy would share the storage, and emptying it would then allocate anew.
        swap(&pending, &finished.pending)
        swap(&capturedBytes, &finished.capturedBytes)
        pending.removeAll(keepingCapacity: pending.count < Self.keptPendingCapacity)
        capturedBytes.removeAll(keepingCapacity: capturedBytes.count < Self.keptCaptureCapacity)
    }
}
