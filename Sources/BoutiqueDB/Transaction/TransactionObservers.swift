import BoutiqueSQLite

/// Everything that takes part in the writer's transactions, each kind in a slot of its own, called in
/// the order the slots are declared:
///
/// 1. change capture, which records the transaction's changes and token that the others read;
/// 2. the commit announcer, which publishes what capture recorded to live queries and feeds;
/// 3. the commit stamper, which stamps local commits to synced tables from capture's record;
/// 4. the app's transaction participants, in the order they were added;
/// 5. any other observer (tests', for instance), in the order it was added.
///
/// The engine reaches each by its slot (`observers.capture`), never by looking for a type in a list.
/// The calling order is kept as one array, rebuilt when a slot changes, so a write's loops over it
/// allocate nothing.
///
/// ```swift
/// observers.capture = capture
/// observers.announcer = CommitAnnouncer(capture: capture, notifier: notifier)
/// for observer in observers.inCallingOrder { try observer.willCommit(connection) }
/// ```
struct TransactionObservers {
    /// Records each transaction's changes (`nil` before the writer is configured).
    var capture: ChangeCapture? { didSet { rebuildCallingOrder() } }
    /// Publishes each commit that capture recorded.
    var announcer: CommitAnnouncer? { didSet { rebuildCallingOrder() } }
    /// Stamps local commits to synced tables.
    var stamper: CommitStamper? { didSet { rebuildCallingOrder() } }
    /// The app's participants (``TransactionParticipant`` through their adapter), in the order added.
    private(set) var participants: [ParticipantObserver] = []
    /// Observers of no engine slot, in the order added.
    private(set) var others: [any WriteTransactionObserver] = []

    /// Every observer, in the order they are called.
    private(set) var inCallingOrder: [any WriteTransactionObserver] = []

    mutating func addParticipant(_ participant: ParticipantObserver) {
        participants.append(participant)
        rebuildCallingOrder()
    }

    /// Removes the adapters of `participant`; `true` when there was one.
    @discardableResult
    mutating func removeParticipant(_ participant: any TransactionParticipant) -> Bool {
        let before = participants.count
        participants.removeAll { $0.participant === participant }
        guard participants.count != before else { return false }
        rebuildCallingOrder()
        return true
    }

    mutating func addOther(_ observer: any WriteTransactionObserver) {
        others.append(observer)
        rebuildCallingOrder()
    }

    private mutating func rebuildCallingOrder() {
        var order: [any WriteTransactionObserver] = []
        order.reserveCapacity(3 + participants.count + others.count)
        if let capture { order.append(capture) }
        if let announcer { order.append(announcer) }
        if let stamper { order.append(stamper) }
        order.append(contentsOf: participants as [any WriteTransactionObserver])
        order.append(contentsOf: others)
        inCallingOrder = order
    }
}
