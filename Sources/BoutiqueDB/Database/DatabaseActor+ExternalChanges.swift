import BoutiqueSQLite

extension DatabaseActor {
    /// Whether another connection (another process, most often) has committed to the file since the last
    /// call, or since the database opened.
    ///
    /// ```swift
    /// // An app extension wrote to the shared file while the app was in the background:
    /// if try await database.checkForExternalChanges() { refreshEverything() }
    /// ```
    ///
    /// It reads the writer's `PRAGMA data_version`, which changes when a commit made through any other
    /// connection to the file is seen, and never for the writer's own commits. Reads in this process do
    /// not write, so a change means someone else wrote. Live queries poll it to notice other processes.
    public func checkForExternalChanges() throws(BoutiqueError) -> Bool {
        let connection = try requireWriter()
        let version: Int64
        do { version = try connection.dataVersion() } catch { throw BoutiqueError(error) }
        defer { lastSeenDataVersion = version }
        return lastSeenDataVersion.map { $0 != version } ?? false
    }
}
