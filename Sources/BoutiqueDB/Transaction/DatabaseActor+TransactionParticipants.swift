import BoutiqueSQLite

extension DatabaseActor {
    /// Adds `participant` to every later write transaction. See ``TransactionParticipant``.
    ///
    /// ```swift
    /// await database.addTransactionParticipant(recorder)
    /// ```
    public func addTransactionParticipant(_ participant: any TransactionParticipant) {
        observers.addParticipant(ParticipantObserver(participant: participant, capture: observers.capture))
    }

    /// Removes a participant added with ``addTransactionParticipant(_:)``; later transactions no longer
    /// call it.
    ///
    /// ```swift
    /// await database.removeTransactionParticipant(recorder)
    /// ```
    public func removeTransactionParticipant(_ participant: any TransactionParticipant) {
        observers.removeParticipant(participant)
    }
}

/// Connects a public ``TransactionParticipant`` to the internal observer chain, handing it what change
/// capture just recorded.
final class ParticipantObserver: WriteTransactionObserver {
    let participant: any TransactionParticipant
    /// The change capture that ran before this observer in the same transaction (capture's slot comes
    /// first in ``TransactionObservers``' calling order).
    private weak var capture: ChangeCapture?

    init(participant: any TransactionParticipant, capture: ChangeCapture?) {
        self.participant = participant
        self.capture = capture
    }

    func willCommit(_ connection: Connection) throws {
        let notice = capture?.notice
        try participant.willCommit(CommittingTransaction(
            connection: DatabaseConnection(connection, isReadOnly: false),
            transactionID: notice?.token == nil ? nil : capture?.transactionID,
            token: notice?.token, tables: notice?.tables ?? []))
    }

    func didCommit(_ connection: Connection) { participant.didEnd(committed: true) }
    func didRollback(_ connection: Connection) { participant.didEnd(committed: false) }
}
