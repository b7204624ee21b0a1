import BoutiqueSQLite

/// Notices commits that other processes make to a shared file, and announces which tables they changed.
///
/// ```swift
/// let monitor = ExternalChangeMonitor(configuration: configuration, notifier: notifier)
/// let task = Task { await monitor.run() }   // until cancelled
/// ```
///
/// Every few milliseconds it reads `PRAGMA data_version` on a connection of its own, which changes when
/// any other connection commits to the file. While nothing changes it looks less and less often, up
/// to ``idleInterval``, and goes back to ``Configuration/interval`` as soon as something does: a burst
/// of commits is followed closely, and an idle app does not wake 250 times a second. Then it reads the change log after the last COMMIT row it
/// saw: each new transaction that this process did not write is announced with its token and tables.
/// A change with no new log rows (a writer that keeps no log, or a log pruned past the monitor) is
/// announced with unknown tables, so every live query refreshes. Without a log (mode `off`) other
/// processes' commits cannot be told from this process's, and each change of the file is announced so.
actor ExternalChangeMonitor {
    struct Configuration: Sendable {
        var location: DatabaseLocation
        var options: DatabaseOptions
        /// The latest COMMIT row when the database opened.
        var cursor: Int64
        /// The pause between looks while the file is changing.
        var interval: Duration
    }

    /// How often the file is looked at while it changes: a few milliseconds, well inside the time a
    /// user notices.
    static let defaultInterval = Duration.milliseconds(4)
    /// The longest pause between looks, once the file has been quiet for a while.
    static let idleInterval = Duration.milliseconds(25)

    private nonisolated let executor = QueueExecutor(label: "BoutiqueDB.changeMonitor")
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    private let configuration: Configuration
    private let notifier: ChangeNotifier
    private var connection: Connection?
    private var dataVersion: Int64?
    private var cursor: Int64
    /// The notifier's count of announcements at the last look, to tell this process's writes that
    /// add no log rows (pruning) from another process's.
    private var announcedAtLastLook = 0

    init(configuration: Configuration, notifier: ChangeNotifier) {
        self.configuration = configuration
        self.notifier = notifier
        self.cursor = configuration.cursor
    }

    /// Looks at the file until the task is cancelled, then closes its connection.
    func run() async {
        announcedAtLastLook = notifier.publishedCount
        var pause = configuration.interval
        while !Task.isCancelled {
            let changed = look()
            pause = changed ? configuration.interval : min(pause * 3 / 2, max(Self.idleInterval, configuration.interval))
            do { try await Task.sleep(for: pause) } catch { break }
        }
        connection?.close()
        connection = nil
    }

    /// One look at the file; `true` when another connection had committed.
    @discardableResult
    private func look() -> Bool {
        do {
            let connection = try openConnection()
            let version = try connection.dataVersion()
            defer { dataVersion = version }
            // The first look has nothing to compare with: it reads the log from where the database opened.
            if let dataVersion, dataVersion == version { return false }
            defer { announcedAtLastLook = notifier.publishedCount }
            let announcedBefore = announcedAtLastLook
            let announcedNow = notifier.publishedCount
            guard configuration.options.changeCapture.mode.writesLog else {
                if dataVersion != nil { notifier.publish(CommitNotice(token: nil, tables: nil, isExternal: true)) }
                return true
            }
            let found = try readNewTransactions(connection)
            if !found, dataVersion != nil, announcedNow == announcedBefore {
                notifier.publish(CommitNotice(token: nil, tables: nil, isExternal: true))
            }
            return true
        } catch {
            // The file may be busy or briefly unreadable (another process checkpointing); the next look
            // tries again, and a connection that failed is reopened.
            connection?.close()
            connection = nil
            dataVersion = nil
            return false
        }
    }

    /// Announces the transactions after the cursor that this process did not write; `true` when the
    /// log had new transactions (anyone's).
    private func readNewTransactions(_ connection: Connection) throws -> Bool {
        try connection.beginTransaction(.deferred)
        defer { try? connection.rollback() }
        guard try ChangeLogSchema.logExists(connection) else { return false }
        if try ChangeLogPruning.horizon(on: connection) > cursor {
            // Another process pruned transactions this one never saw.
            cursor = try ChangeLogReader.latestToken(on: connection).changeID
            notifier.publish(CommitNotice(token: ChangeToken(changeID: cursor), tables: nil, isExternal: true))
            return true
        }
        let rows = try connection.fetchRows(
            "SELECT change_id, change_type, table_name FROM turso_cdc WHERE change_id > ? ORDER BY change_id",
            [.integer(cursor)]
        ).rows
        var tables: Set<String> = []
        var found = false
        for row in rows {
            guard row.count == 3, case .integer(let changeID) = row[0] else { continue }
            if row[1] == .integer(2) {
                found = true
                cursor = changeID
                if !notifier.takeLocalCommit(changeID) {
                    notifier.publish(CommitNotice(token: ChangeToken(changeID: changeID), tables: tables, isExternal: true))
                }
                tables.removeAll()
            } else if case .text(let table) = row[2] {
                tables.insert(table.lowercased())
            }
        }
        notifier.forgetLocalCommits(through: cursor)
        return found
    }

    private func openConnection() throws -> Connection {
        if let connection { return connection }
        let opened = try ConnectionFactory.openReader(at: configuration.location, options: configuration.options)
        connection = opened
        return opened
    }
}
