import BoutiqueSQLite

extension DatabaseActor {
    /// Creates the change log when the file lacks it, starts capturing the writer's changes and
    /// announcing its commits.
    ///
    /// Called once the writer is configured and before migrations run, so migrations are logged too.
    func installChangeCapture(on connection: Connection) throws(BoutiqueError) {
        let capture: ChangeCapture
        do {
            capture = try ChangeCapture(
                connection: connection, options: options.changeCapture, notifier: changeCenter.notifier,
                tracksLocalCommits: options.multiProcess)
        } catch let error as BoutiqueError {
            throw error
        } catch {
            throw BoutiqueError.library(error, writing: true)
        }
        observers.capture = capture
        observers.announcer = CommitAnnouncer(
            capture: capture, notifier: changeCenter.notifier, refreshLimits: options.liveQueryRefreshLimits)
        installCommitStamper()
    }

    /// Starts watching other processes' commits to a shared file, from the log's current end.
    func startChangeMonitor() throws(BoutiqueError) {
        guard options.multiProcess else { return }
        let writer = try requireWriter()
        var cursor: Int64 = 0
        if options.changeCapture.mode.writesLog {
            do {
                if case .integer(let latest)? = try writer.fetchValue(ChangeLogReader.latestCommitSQL) { cursor = latest }
            } catch {
                throw BoutiqueError(error)
            }
        }
        changeCenter.startMonitor(.init(
            location: location, options: options, cursor: cursor, interval: ExternalChangeMonitor.defaultInterval))
    }

    /// Stops capturing and monitoring (the database is closing).
    func stopChangeCapture() {
        changeCenter.stop()
        observers.capture?.detach()
    }
}
