
/// A database's change announcements: the notifier every commit goes through and, for a file shared
/// with other processes, the monitor that notices their commits.
///
/// ```swift
/// let id = database.changeCenter.subscribe { notice in ... }   // starts the monitor when multiProcess
/// database.changeCenter.unsubscribe(id)
/// ```
///
/// The monitor starts when the database opens, so that no commit made after that is missed, and
/// stops when it closes.
final class ChangeCenter: Sendable {
    let notifier = ChangeNotifier()

    private struct MonitorState {
        var configuration: ExternalChangeMonitor.Configuration?
        var task: Task<Void, Never>?
        var isStopped = false
    }

    private let monitor = Lock(MonitorState())

    init() {}

    /// Starts watching other processes' commits (the database is shared).
    func startMonitor(_ configuration: ExternalChangeMonitor.Configuration) {
        monitor.withLock { $0.configuration = configuration }
        startMonitorIfNeeded()
    }

    /// Whether other processes' commits are watched for.
    var watchesOtherProcesses: Bool { monitor.withLock { $0.configuration != nil } }

    /// Adds `handler` for every later commit, from this process or (when shared) another.
    func subscribe(_ handler: @escaping ChangeNotifier.Handler) -> UInt64 {
        notifier.subscribe(handler)
    }

    func unsubscribe(_ id: UInt64) {
        notifier.unsubscribe(id)
    }

    private func startMonitorIfNeeded() {
        monitor.withLock { state in
            guard state.task == nil, !state.isStopped, let configuration = state.configuration else { return }
            let watcher = ExternalChangeMonitor(configuration: configuration, notifier: notifier)
            state.task = Task { await watcher.run() }
        }
    }

    /// Stops the monitor for good (the database is closing).
    func stop() {
        let task = monitor.withLock { state -> Task<Void, Never>? in
            state.isStopped = true
            defer { state.task = nil }
            return state.task
        }
        task?.cancel()
    }

    deinit {
        monitor.withLock { $0.task }?.cancel()
    }
}
