import BoutiqueSQLite

extension ChangeCapture {
    /// Logs, in a transaction of their own, the changes that committed without a managed transaction
    /// (`writeWithoutTransaction`, or statements a closure ran after ending its transaction itself), and
    /// hands their notices over to be announced.
    ///
    /// ```swift
    /// try await db.writeWithoutTransaction { conn in try conn.execute("INSERT INTO tag(name) VALUES ('x')") }
    /// // the insert is logged right after, as its own transaction
    /// ```
    ///
    /// SQLite gives no way to add rows to a transaction it commits on its own, so these log rows follow
    /// their changes instead of sharing their transaction: a crash between the two loses them. That is
    /// why `write` is the way to change data, and `writeWithoutTransaction` is for `VACUUM` and pragmas.
    func logCommittedGroups(_ connection: Connection) {
        var groups = committedGroups
        committedGroups.removeAll()
        if mode.writesLog, let schema, let version = try? SchemaSnapshot.schemaVersion(connection), version != schema.version,
            let later = try? SchemaSnapshot.read(connection)
        {
            let changes = schema.changes(to: later)
            self.schema = later
            if !changes.isEmpty {
                groups.append(CommittedGroup(changes: changes, tables: ["sqlite_schema"], statementTexts: [], bytes: []))
            }
        }
        guard !groups.isEmpty else { return }
        guard mode.writesLog else {
            commitsBecameFinal(groups.map { CommitNotice(token: nil, tables: $0.tables, isExternal: false) })
            return
        }
        var notices: [CommitNotice] = []
        isWritingLog = true
        defer { isWritingLog = false }
        do {
            try connection.beginTransaction(.immediate)
            notices = try appendLogRows(of: groups, on: connection)
            try connection.commit()
        } catch {
            // The changes themselves are committed; only their log is lost. Live queries still hear of
            // them, without a token.
            try? connection.rollback()
            notices = groups.map { CommitNotice(token: nil, tables: $0.tables, isExternal: false) }
        }
        commitsBecameFinal(notices)
    }

    /// Appends the log rows of `groups`, each a transaction of its own, in the transaction open on
    /// `connection`; the notices to publish once it commits.
    func appendLogRows(of groups: [CommittedGroup], on connection: Connection) throws -> [CommitNotice] {
        var notices: [CommitNotice] = []
        let version = try SchemaSnapshot.schemaVersion(connection)
        for group in groups {
            let rows = try logRows(
                for: group.changes, texts: group.statementTexts, bytes: group.bytes, schemaVersion: version, on: connection)
            guard !rows.isEmpty else {
                notices.append(CommitNotice(token: nil, tables: group.tables, isExternal: false))
                continue
            }
            let firstID = try ChangeLogWriter.nextID(on: connection)
            let commitID = try ChangeLogWriter.append(rows, firstID: firstID, time: ChangeLogWriter.now(), on: connection)
            if tracksLocalCommits { notifier.willCommitLocally(commitID) }
            notices.append(CommitNotice(token: ChangeToken(changeID: commitID), tables: group.tables, isExternal: false))
        }
        return notices
    }
}
