import BoutiqueSQLite

extension DatabaseActor {
    /// Whether another connection (another process, most often) has committed to the file since the
    /// database last looked: since it opened, the last call, or (with ``DatabaseOptions/multiProcess``)
    /// the last write.
    ///
    /// ```swift
    /// // An app extension wrote to the shared file while the app was in the background:
    /// if try await database.checkForExternalChanges() { refreshEverything() }
    /// ```
    ///
    /// It reads the writer's `PRAGMA data_version`, which changes when a commit made through any other
    /// connection to the file is seen, and never for the writer's own commits. Readers in this process do
    /// not write, so a change means someone else wrote. Live queries poll it to notice other processes;
    /// transaction observers hear about each change too.
    public func checkForExternalChanges() throws -> Bool {
        let connection = try requireWriter()
        do { return try noticeExternalChanges(on: connection) } catch { throw BoutiqueError(error) }
    }

    /// Compares the writer's data version with the last one seen and tells the transaction observers
    /// when it moved. The one place the last seen version changes, so no observer misses a change.
    @discardableResult
    func noticeExternalChanges(on connection: Connection) throws(SQLiteError) -> Bool {
        let version = try connection.dataVersion()
        defer { lastSeenDataVersion = version }
        guard let previous = lastSeenDataVersion, previous != version else { return false }
        for observer in observers.inCallingOrder { observer.didDetectExternalChanges(connection) }
        return true
    }
}
