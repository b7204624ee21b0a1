import Foundation

/// The parts of a sync the session reports as it starts and ends them.
enum SyncPhase: Sendable, Hashable {
    case pushing
    case pulling
    case bootstrapping
}

/// Keeps ``SyncStatus`` on the main actor and derives its activity from what is going on.
///
/// ```swift
/// board.begin(.pushing)        // activity: .pushing
/// board.end(.pushing)          // activity: .idle
/// board.setProblem(.offline(error))
/// ```
///
/// Pushes run beside a pull's long wait, so several parts can be under way at once; the activity
/// shows the one a user cares most about: a refusal or an outage first, then a bootstrap, a push, a
/// pull, and idle when nothing runs (a long poll waiting for changes is idle: caught up).
///
/// The pending count is not kept here but in ``LivePendingCount``, off the main actor, so that it is
/// exact when a write returns, before the main actor could hear of it.
@MainActor
final class SyncStatusBoard {
    private(set) var status = SyncStatus()
    private var running: [SyncPhase: Int] = [:]
    private var progress = BootstrapProgress(rowsDone: 0, totalRows: nil)
    private var problem: SyncStatus.Activity?

    nonisolated init() {}

    func begin(_ phase: SyncPhase) {
        running[phase, default: 0] += 1
        if phase == .bootstrapping { progress = BootstrapProgress(rowsDone: 0, totalRows: nil) }
        recompute()
    }

    func end(_ phase: SyncPhase) {
        running[phase] = max(0, (running[phase] ?? 0) - 1)
        recompute()
    }

    func setProgress(_ progress: BootstrapProgress) {
        self.progress = progress
        recompute()
    }

    /// An outage or a refusal of the device, shown until an attempt succeeds; `nil` clears it.
    func setProblem(_ problem: SyncStatus.Activity?) {
        self.problem = problem
        recompute()
    }

    func didSync(at date: Date) {
        status.lastSync = date
        status.hasSynced = true
        problem = nil
        recompute()
    }

    func setHasSynced(_ value: Bool) { status.hasSynced = status.hasSynced || value }

    func record(_ refusal: SyncRefusal) { status.lastRefusal = refusal }

    private func recompute() {
        let activity: SyncStatus.Activity =
            if let problem { problem }
            else if running[.bootstrapping, default: 0] > 0 { .bootstrapping(progress) }
            else if running[.pushing, default: 0] > 0 { .pushing }
            else if running[.pulling, default: 0] > 0 { .pulling }
            else { .idle }
        if status.activity != activity { status.activity = activity }
    }
}

/// How the session tells the app-facing ``BoutiqueSync`` what it is doing.
struct SyncSessionReporter: Sendable {
    var phase: @Sendable (SyncPhase, _ started: Bool) async -> Void
    var progress: @Sendable (BootstrapProgress) async -> Void
    var refusal: @Sendable (SyncRefusal) async -> Void
}
