/// A transaction sent in parts (``PushPart``): each part is kept (``SyncStagingStoreTransaction``) until
/// the last, which applies the whole transaction in the same store transaction, a slice at a time, so
/// that the server's memory does not grow with the transaction.
extension PushApplier {
    /// How many kept changes the last part applies at a time.
    static let stagedSliceChanges = 1_000

    /// Thrown when a slice after the first of a transaction sent in parts is refused: the slices
    /// before it are applied in the caller's store transaction, which must roll back; the refusal is
    /// then recorded alone (``refuseStaged(_:denial:)``).
    struct StagedSliceRefused: Error {
        let denial: Denial
    }

    /// Thrown when a part cannot be kept (it changes a row another part changes, the transaction grows
    /// past the limit, the digest of the whole does not match): the push is refused, nothing is kept.
    struct PartRefused: Error {
        let kind: SyncRefusal.Reason
        let reason: String
    }

    /// Keeps one part of `request`'s transaction; applies the whole transaction at its last part.
    /// `denials` are the app's hook's refusals of the part's changes: a refused part refuses the whole
    /// transaction at once.
    func applyPart(_ request: PushRequest, part: PushPart, refusing denials: [Int64: Denial], maximumChanges: Int) throws -> PushResponse {
        var (round, transaction): (Round, SyncTransaction)
        switch try openPart(request) {
        case .answered(let response): return response
        case .open(let opened, let carried): (round, transaction) = (opened, carried)
        }
        if transaction.id <= round.record.appliedThrough {
            // Handled already (the answer to its last part was lost): nothing more is kept, and a
            // refusal is told again.
            if let kept = try store.stagedTransaction(replica: request.replica), kept.transactionID <= round.record.appliedThrough {
                try store.removeStagedTransaction(replica: request.replica)
            }
            let recalled = try store.refusedTransactions(replica: request.replica, from: transaction.id, through: transaction.id).first
            return try close(round, request: request, refusals: recalled.map {
                [Self.refusalWithoutRows(transactionID: $0.transactionID, table: $0.table, key: $0.key, message: $0.reason)]
            })
        }
        if let denial = denials[transaction.id] {
            return try refuse(transaction, denial: denial, round: &round, request: request)
        }
        var staged = try store.stagedTransaction(replica: request.replica)
        if let kept = staged, kept.transactionID != transaction.id || kept.stamp != transaction.stamp {
            // Another transaction under way (a file restored from a backup wrote another one under
            // this id, or stamped it again): it starts over.
            try store.removeStagedTransaction(replica: request.replica)
            staged = nil
        }
        var kept = staged
            ?? StagedTransaction(
                transactionID: transaction.id, stamp: transaction.stamp, receivedThrough: 0, changeCount: 0,
                digestState: SyncDigest.Running(id: transaction.id, time: transaction.stamp.time).state, updated: wall)
        guard part.from == kept.receivedThrough else {
            // Sent again, or past a gap: nothing is kept; the answer says where to go on.
            var response = try close(round, request: request, refusals: nil)
            response.receivedThrough = kept.receivedThrough
            return response
        }
        if kept.changeCount + transaction.changes.count > maximumChanges, let first = transaction.changes.first {
            // Refused alone, as any transaction over a limit: the device undoes it and goes on.
            let denial = Denial(
                change: first,
                reason: "transaction \(transaction.id) changes more than \(maximumChanges) rows; the server takes transactions of at most \(maximumChanges) changed rows",
                kind: .tooLarge)
            return try refuse(transaction, denial: denial, round: &round, request: request)
        }
        guard try store.stageChanges(transaction.changes, replica: request.replica, startingAt: kept.changeCount) else {
            throw PartRefused(kind: .invalid, reason: "transaction \(transaction.id) changes one row in two of its parts")
        }
        var running = SyncDigest.Running(resuming: kept.digestState)
        running.add(transaction.changes)
        kept.digestState = running.state
        kept.changeCount += transaction.changes.count
        kept.receivedThrough = part.through
        kept.updated = wall
        guard part.isLast else {
            try store.setStagedTransaction(kept, replica: request.replica)
            var response = try close(round, request: request, refusals: nil)
            response.receivedThrough = kept.receivedThrough
            return response
        }
        let digest = running.finished(writer: transaction.stamp.replica)
        guard digest == part.transactionDigest else {
            throw PartRefused(kind: .invalid, reason: "transaction \(transaction.id)'s digest does not match the content of its parts")
        }
        let refusal = try applyStaged(kept, round: &round, replica: request.replica)
        try round.refuseWaitingText()
        round.record.appliedThrough = transaction.id
        round.record.digest = digest
        try store.removeStagedTransaction(replica: request.replica)
        var response = try close(round, request: request, refusals: refusal.map { [$0] })
        response.receivedThrough = kept.receivedThrough
        return response
    }

    /// Applies the kept changes of `staged`, a slice at a time; the refusal when its first slice is
    /// refused (recorded; the rest is not applied), `nil` when it was applied.
    private func applyStaged(_ staged: StagedTransaction, round: inout Round, replica: String) throws -> PushRefusal? {
        round.begin()
        // The rows' spaces go back only while they fit an answer.
        round.memo.placedLimit = Self.stagedSliceChanges * 10
        var index = 0
        while index < staged.changeCount {
            let slice = try store.stagedChanges(replica: replica, from: index, limit: Self.stagedSliceChanges)
            guard !slice.isEmpty else { break }
            try store.prefetchRowStates(slice.map { SnapshotPosition(table: $0.table, key: $0.key) })
            let piece = SyncTransaction(id: staged.transactionID, stamp: staged.stamp, changes: slice)
            if try round.handle(piece, applier: self, countsRefusedRows: false) == .refused {
                guard let denial = round.denials[staged.transactionID] else { break }
                // Slices before this one are applied: the caller's store transaction rolls them back.
                guard index == 0 else { throw StagedSliceRefused(denial: denial) }
                return try refusal(of: staged, replica: replica, denial: denial)
            }
            index += slice.count
        }
        round.noteLogged(stamp: staged.stamp)
        return nil
    }

    /// A part's push opened (``open(_:)``), with its one transaction.
    private enum PartOpening {
        case open(Round, SyncTransaction)
        case answered(PushResponse)
    }

    private func openPart(_ request: PushRequest) throws -> PartOpening {
        switch try open(request) {
        case .answered(let response): return .answered(response)
        case .open(let round):
            guard let transaction = request.transactions.first else {
                throw PartRefused(kind: .invalid, reason: "a part of a transaction carries no transaction")
            }
            return .open(round, transaction)
        }
    }

    /// Records the refusal of a transaction sent in parts, refused by a slice after its first (in a
    /// new store transaction: the one that applied the slices before it rolled back), and answers it.
    func refuseStaged(_ request: PushRequest, denial: Denial) throws -> PushResponse {
        var (round, transaction): (Round, SyncTransaction)
        switch try openPart(request) {
        case .answered(let response): return response
        case .open(let opened, let carried): (round, transaction) = (opened, carried)
        }
        return try refuse(transaction, denial: denial, round: &round, request: request)
    }

    /// Records `transaction` (sent in parts) as refused and handled, and answers with its refusal: with
    /// the rows it touched when the server holds them all (its last part came) and they fit an answer.
    private func refuse(_ transaction: SyncTransaction, denial: Denial, round: inout Round, request: PushRequest) throws -> PushResponse {
        var answer = Self.refusalWithoutRows(
            transactionID: transaction.id, table: denial.change.table, key: denial.change.key, message: denial.reason, reason: denial.kind)
        if request.part?.isLast == true, let staged = try store.stagedTransaction(replica: request.replica),
            staged.transactionID == transaction.id, staged.receivedThrough == request.part?.through
        {
            answer = try refusal(of: staged, replica: request.replica, denial: denial)
        }
        try store.removeStagedTransaction(replica: request.replica)
        try store.recordRefusal(
            RefusedTransaction(transactionID: transaction.id, table: denial.change.table, key: denial.change.key, reason: denial.reason),
            replica: request.replica)
        round.record.appliedThrough = transaction.id
        round.record.digest = request.part?.transactionDigest
        return try close(round, request: request, refusals: [answer])
    }

    /// The refusal of a staged transaction whose every part the server holds: with the server's version
    /// of the rows it touched, as any refusal, while they fit an answer (the rows, and their bytes, of
    /// a page); without them past that.
    private func refusal(of staged: StagedTransaction, replica: String, denial: Denial) throws -> PushRefusal {
        let withoutRows = Self.refusalWithoutRows(
            transactionID: staged.transactionID, table: denial.change.table, key: denial.change.key, message: denial.reason,
            reason: denial.kind)
        guard staged.changeCount <= Self.stagedSliceChanges else { return withoutRows }
        var rights = try refusalRights()
        var answer = RefusalRows()
        guard try answer.add(
            try store.stagedChanges(replica: replica, from: 0, limit: Self.stagedSliceChanges), store: store, rights: &rights,
            upTo: maximumRefusalBytes)
        else { return withoutRows }
        return PushRefusal(
            transactionID: staged.transactionID, table: denial.change.table, key: denial.change.key, reason: denial.kind,
            message: denial.reason, rows: answer.rows, absentRows: answer.absent)
    }

    /// A refusal whose rows are more than an answer carries (a transaction sent in parts, or one whose
    /// rows' states pass a page's bytes), so none go: the device takes the server's version of them
    /// from a snapshot.
    static func refusalWithoutRows(
        transactionID: Int64, table: String, key: DatabaseValue, message: String, reason: SyncRefusal.Reason = .forbidden
    ) -> PushRefusal {
        PushRefusal(
            transactionID: transactionID, table: table, key: key, reason: reason, message: message, rows: [], absentRows: [],
            rowsLeftOut: true)
    }
}
