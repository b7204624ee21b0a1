/// How a database is opened: sharing between processes, reader pool size, lock waits, constraints
/// and durability.
///
/// ```swift
/// let url = try BoutiqueDB.sharedContainerURL(groupIdentifier: "group.com.example.notes", filename: "notes.db")
/// let db = try await BoutiqueDB.open(url: url, migrations: AppMigrations.plan,
///                                    options: .init(multiProcess: true))
/// ```
public struct DatabaseOptions: Sendable, Hashable {
    /// How much a commit waits for the disk.
    public enum Durability: Sendable, Hashable {
        /// `PRAGMA synchronous = NORMAL` in WAL mode: a commit is atomic and survives a crash of the
        /// process; a power cut may lose the last commits, never corrupt the file. SQLite's
        /// recommendation for WAL and the default.
        case normal
        /// `PRAGMA synchronous = FULL`: every commit is on disk before `write` returns.
        case full
    }

    /// The file is shared with other processes (an app and its extensions in an App Group).
    ///
    /// Every file database uses WAL, waits for other connections' locks up to ``busyTimeout`` and
    /// tolerates another process creating, converting or migrating the same file at the same moment, so
    /// `SQLITE_BUSY` never leaks out in either mode. What `multiProcess` adds is noticing the other
    /// writers: every write transaction checks `PRAGMA data_version` once it holds the lock and, when
    /// another process committed since, tells the transaction observers (change capture) before the
    /// closure runs. Without it the database assumes it is the only writer and skips that check;
    /// ``DatabaseActor/checkForExternalChanges()`` works in both modes.
    public var multiProcess: Bool

    /// The most reader connections open at once; reads beyond it wait for a free reader.
    public var readerCount: Int

    /// How long a write waits for a lock held by another connection before failing with
    /// ``BoutiqueError/transactionInProgress``; readers use it too for the rare locks they wait for.
    public var busyTimeout: Duration

    /// Whether foreign-key constraints are enforced (`PRAGMA foreign_keys`). On by default.
    public var foreignKeys: Bool

    /// How much a commit waits for the disk.
    public var durability: Durability

    /// How changes are recorded in the `turso_cdc` change log (full capture by default).
    public var changeCapture: ChangeCaptureOptions

    /// How much of the writer's time quick live queries may take as each commit is announced. Not
    /// public: the standard limits suit apps; tests that must not depend on the machine's speed (a
    /// preempted thread makes any query look slow) give more.
    var liveQueryRefreshLimits = CommitRefresh.Limits.standard

    /// What runs on every connection as it opens, writer and readers alike.
    var preparation = DatabasePreparation()

    /// Runs `body` on every connection the database opens (the writer and each reader), before
    /// anything else uses it, so that functions added there work in reads, writes, triggers and live
    /// queries alike. Steps run in the order they were added; a step that throws makes the open (or
    /// the read that needed a new reader) fail with that error.
    ///
    /// ```swift
    /// var options = BoutiqueDB.Options()
    /// options.prepareDatabase { conn in try conn.add(function: exclaim) }
    /// ```
    public mutating func prepareDatabase(_ body: @escaping @Sendable (PreparedConnection) throws -> Void) {
        preparation.append(body)
    }

    /// - Parameters:
    ///   - multiProcess: The file is shared with other processes.
    ///   - readerCount: The most reader connections open at once (at least 1).
    ///   - busyTimeout: How long to wait for another connection's lock.
    ///   - foreignKeys: Whether foreign keys are enforced.
    ///   - durability: How much a commit waits for the disk.
    ///   - changeCapture: How changes are recorded in the change log.
    public init(
        multiProcess: Bool = false,
        readerCount: Int = 4,
        busyTimeout: Duration = .seconds(5),
        foreignKeys: Bool = true,
        durability: Durability = .normal,
        changeCapture: ChangeCaptureOptions = .default
    ) {
        self.multiProcess = multiProcess
        self.readerCount = readerCount
        self.busyTimeout = busyTimeout
        self.foreignKeys = foreignKeys
        self.durability = durability
        self.changeCapture = changeCapture
    }

    /// Single process, four readers, five-second busy timeout, foreign keys on, normal durability.
    public static let `default` = DatabaseOptions()

    /// Refuses options that cannot work, before anything is opened.
    func validate() throws(BoutiqueError) {
        guard readerCount >= 1 else {
            throw .invalidArgument("readerCount must be at least 1, not \(readerCount)")
        }
        guard busyTimeout >= .zero else {
            throw .invalidArgument("busyTimeout must not be negative, not \(busyTimeout)")
        }
        try changeCapture.validate()
    }
}
