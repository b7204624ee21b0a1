import BoutiqueSQLite

/// Announces the writer's commits to live queries and change-feed readers, on the writer's thread,
/// right after each write ends, lending a commit's connection to the quick live queries.
///
/// ```swift
/// database.observers.capture = capture
/// database.observers.announcer = CommitAnnouncer(capture: capture, notifier: notifier)
/// // after each COMMIT, live queries hear of it, and quick ones refresh on the writer right away
/// ```
///
/// ``ChangeCapture`` says what each commit changed; this publishes it. Its slot comes right after the
/// capture's (``TransactionObservers``), so that it runs once the capture has recorded how the write ended and forgotten the
/// transaction, and before every other observer, as the capture itself once announced: a
/// ``TransactionParticipant`` hears that the transaction ended after live queries heard of its commit.
///
/// Commits are announced in the order they became final: those a transaction logged ahead of its own
/// (statements that committed on their own before it began), then its own. Only a managed commit lends
/// the writer connection (see ``CommitRefresh``); commits logged after a rollback or after
/// `writeWithoutTransaction` are announced without it, and every refresh of theirs goes to a reader.
final class CommitAnnouncer: WriteTransactionObserver {
    /// The capture that ran just before, in the same transaction, whose notices this publishes.
    private let capture: ChangeCapture
    private let notifier: ChangeNotifier
    /// The writer connection and time each commit lends quick live queries as it is announced (one
    /// object, since only the writer's thread publishes with it).
    private let refresh: CommitRefresh
    /// The notices being announced, traded with the capture's (see
    /// ``ChangeCapture/takeCommitNotices(into:)``).
    private var notices: [CommitNotice] = []

    init(capture: ChangeCapture, notifier: ChangeNotifier, refreshLimits: CommitRefresh.Limits = .standard) {
        self.capture = capture
        self.notifier = notifier
        self.refresh = CommitRefresh(limits: refreshLimits)
    }

    func didCommit(_ connection: Connection) {
        // Published on the writer's thread, just after COMMIT: quick live queries refresh here, on this
        // connection. Their statements are not the user's: the capture's hooks let them pass, as the
        // log's own.
        capture.withoutCapturing {
            refresh.begin(on: connection)
            defer { refresh.end() }
            announce(lending: refresh)
        }
    }

    func didRollback(_ connection: Connection) {
        announce(lending: nil)
    }

    func didWriteOutsideTransaction(_ connection: Connection) {
        announce(lending: nil)
    }

    /// Publishes the commits that became final since the last announcement, oldest first.
    private func announce(lending refresh: CommitRefresh?) {
        capture.takeCommitNotices(into: &notices)
        for var notice in notices {
            notice.refresh = refresh
            notifier.publish(notice)
        }
        notices.removeAll(keepingCapacity: true)
    }
}
