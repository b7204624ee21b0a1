/// Applies one validated push inside a store transaction: checks the replica's watermark and digest,
/// merges each new transaction's changes into the rows, logs them, runs the resolver, and moves the
/// watermark, all in the caller's transaction.
struct PushApplier {
    let store: any SyncStoreTransaction
    let wall: UInt64
    let resolver: SyncResolver?
    /// Where rows go, on a server with rules; `nil` puts every row in the common space.
    var placer: SpacePlacer?
    /// The pushing user (`nil`: trusted code): checked against the rules' roles.
    var user: String?
    /// The tenant's collaborative text columns by table, as its devices described them
    /// (``/BoutiqueSync/SyncTableShape/collaborativeText``): only their values merge as text; every
    /// other column's value is opaque bytes, whatever they start with.
    var textColumns = TextColumns()
    /// Why rows cannot be placed now (the rules name a table or column the tenant's devices do not
    /// describe): a push with transactions to apply is refused whole, ``/BoutiqueSync/SyncRefusal/Reason/rulesMismatch``,
    /// rather than its rows placed where a rule that was not found leaves them (the common space).
    var rulesMismatch: String?
    /// The most bytes a row's merged state may grow to (``SyncServerLimits/maximumRowStateBytes``).
    var maximumRowStateBytes = Int.max
    /// The most bytes of row states the refusals of one answer carry (``SyncServerLimits/maximumPageBytes``):
    /// the push is handled up to the refused transaction that would pass it, and the device pushes the
    /// rest again, as for any acknowledgement short of its last transaction. The first refused
    /// transaction always goes, however large: a push must move forward.
    var maximumRefusalBytes = Int.max
    /// The columns that hold attachments, by lowercased table (``/BoutiqueSync/SyncTableShape/attachments``):
    /// the rows that point at an attachment let their readers read it.
    var attachmentColumns: [String: [String]] = [:]

    /// Thrown when transactions are found refusable only once merged (a change would grow a row's
    /// state past ``maximumRowStateBytes``, or its text operations would wait in the server's text):
    /// the caller's store transaction rolls back, and the push is handled again with them refused.
    struct RefusedWhileApplied: Error {
        struct Refused: Sendable {
            let transactionID: Int64
            let change: SyncChange
            let reason: String
            let kind: SyncRefusal.Reason
        }

        var refused: [Refused]
    }

    /// Why a pushed transaction is refused: the first change the user may not make (or that passes a
    /// limit: ``kind`` ``/BoutiqueSync/SyncRefusal/Reason/tooLarge``).
    struct Denial: Sendable {
        let change: SyncChange
        let reason: String
        var kind: SyncRefusal.Reason = .forbidden
    }

    /// How many refusals the store keeps per replica. The device that pushed a refused transaction
    /// heard of it once its base passes it, but a copy of its file restored from an older backup has
    /// not: its push from the older base is answered with the refusals the server's watermark passes
    /// (``open(_:)``), the newest this many.
    static let keptRefusals = 1_000

    /// Applies `request`, except the transactions `refusing` names and (on a server with rules) those
    /// the user's roles do not allow: those are recorded as handled (the watermark moves past them) and
    /// answered with the server's version of their rows. A transaction pushed again after a lost answer
    /// is refused again, so the device still hears of it.
    ///
    /// On a server with rules, each row changed is placed in its space after the change (the log entry
    /// notes the space it left, if it moved, and the rows that follow it move with it), and the user who
    /// inserts a root row owns its space from that point of the sequence.
    func apply(_ request: PushRequest, refusing denials: [Int64: Denial] = [:]) throws -> PushResponse {
        var round: Round
        switch try open(request) {
        case .answered(let response): return response
        case .open(let opened): round = opened
        }
        round.denials = denials
        try recallRefusals(of: request, handledThrough: round.record.appliedThrough, into: &round.denials)
        // The rows the new transactions change, read in one go where the store can.
        let changed = request.transactions.filter { $0.id > round.record.appliedThrough }.flatMap(\.changes)
        if !changed.isEmpty { try store.prefetchRowStates(changed.map { SnapshotPosition(table: $0.table, key: $0.key) }) }
        if placer != nil { round.memo.reserveCapacity(changed.count) }
        for transaction in request.transactions where transaction.id > round.record.appliedThrough {
            round.begin()
            let outcome = try round.handle(transaction, applier: self)
            guard outcome != .stop else { break }
            if outcome == .applied { round.noteLogged(stamp: transaction.stamp) }
            round.record.appliedThrough = transaction.id
            round.record.digest = transaction.digest
        }
        try round.refuseWaitingText()
        return try close(round, request: request, refusals: try refusals(of: request, round.denials, through: round.record.appliedThrough))
    }

    /// What a push finds before it handles any transaction: the replica's record and the server's
    /// clock, or the answer that ends the push there.
    enum Opening {
        case open(Round)
        case answered(PushResponse)
    }

    /// The checks every push passes first: the replica's secret, and that the device's base is the
    /// server's watermark for it (or a resent transaction shows the same history).
    func open(_ request: PushRequest) throws -> Opening {
        var clock = HybridLogicalClock(last: try store.clock())
        let serverTime = clock.tick(now: wall)
        let known = try store.replica(request.replica)
        if try ReplicaSecret.check(request.replicaSecret, against: known) == .wrong {
            // Another device's replica id: nothing is applied, and nothing of its record is told.
            return .answered(PushResponse(
                outcome: .forbidden, appliedThrough: 0, digest: nil, reason: ReplicaSecret.refusal(request.replica), refusal: .replicaTaken,
                serverTime: serverTime))
        }
        if known == nil, request.baseTransactionID > 0, try !vouchedFor(request) {
            // A replica this server does not know pushes from a base it says the server acknowledged:
            // the server was restored from a backup made before it knew the replica. Taking the base
            // as the watermark would skip everything before it; the answer tells the device that
            // nothing is held, and it sends again what it had acknowledged.
            try store.setClock(serverTime)
            return .answered(PushResponse(outcome: .mismatch, appliedThrough: 0, digest: nil, serverTime: serverTime))
        }
        var record = known
            ?? ReplicaRecord(
                replica: request.replica, appliedThrough: request.baseTransactionID, digest: request.baseDigest, cursor: 0,
                lastSeen: wall, isRetired: false)
        // The first push with a secret binds the id to it (a record from before secrets included).
        if record.secretHash == nil, let secret = request.replicaSecret { record.secretHash = try ReplicaSecret.hash(secret) }
        if let known, request.baseTransactionID != record.appliedThrough || request.baseDigest != record.digest {
            // The device's base is not the server's watermark. A lost acknowledgement makes the device
            // push the watermark's transaction again: then its digest shows it is the same history.
            // (A transaction sent in parts is told by its last part's digest of the whole.)
            let resent = request.transactions.first { $0.id == record.appliedThrough }
            let resentDigest = request.part?.transactionDigest ?? resent?.digest
            guard resent != nil, resentDigest == record.digest else {
                if known.secretHash == nil, record.secretHash != nil {
                    // An id from before secrets is bound by its first use with one, the 409 included:
                    // the answer tells the watermark, and from now on only to this secret's holder,
                    // who can then also prove the id is theirs to retire.
                    var bound = known
                    bound.secretHash = record.secretHash
                    try store.setReplica(bound)
                }
                try store.setClock(serverTime)
                return .answered(PushResponse(
                    outcome: .mismatch, appliedThrough: record.appliedThrough, digest: record.digest, serverTime: serverTime,
                    refusals: try Self.refusals(passedBy: record, base: request.baseTransactionID, in: store)))
            }
        }
        // Checked after the replica's base, so that the device hears of a restored or cloned file
        // first; a push with nothing new (the first of a session, say) is answered as usual.
        if let rulesMismatch, request.transactions.contains(where: { $0.id > record.appliedThrough }) {
            return .answered(PushResponse(
                outcome: .refused, appliedThrough: known?.appliedThrough ?? 0, digest: known?.digest, reason: rulesMismatch,
                refusal: .rulesMismatch, serverTime: serverTime))
        }
        let placer = self.placer
        return .open(Round(
            record: record, clock: clock, memo: PlacementMemo(remembering: { placer?.resolve($0).isParent ?? false }),
            rights: user.map { SpaceRights(store: store, user: $0) }))
    }

    /// Whether the server holds the history before the base of a push under a replica id it does not
    /// know yet: the id the device gave up for it (after a mismatch) is one the server knows, at or past
    /// that base.
    private func vouchedFor(_ request: PushRequest) throws -> Bool {
        guard let retired = request.retiredReplica, let old = try store.replica(retired) else { return false }
        return old.appliedThrough >= request.baseTransactionID
    }

    /// The refusals the server recorded for `record`'s replica after `base` through its watermark, for
    /// an answer that tells a device a watermark past its base (a mismatch, or a refusal of stamps too
    /// far ahead): a device whose file holds the watermark's transaction takes the watermark as its own
    /// (an acknowledgement lost, or a copy of the file restored from an older backup), and must undo
    /// these first. Without rows: the device takes the server's version from a snapshot.
    static func refusals(passedBy record: ReplicaRecord, base: Int64, in store: any SyncStoreTransaction) throws -> [PushRefusal]? {
        guard base < record.appliedThrough else { return nil }
        let refused = try store.refusedTransactions(replica: record.replica, from: base + 1, through: record.appliedThrough)
        guard !refused.isEmpty else { return nil }
        return refused.map {
            Self.refusalWithoutRows(transactionID: $0.transactionID, table: $0.table, key: $0.key, message: $0.reason)
        }
    }

    /// The end of every push that was open: the replica's record and the clock stored, the id the
    /// device gave up retired, the answer made.
    func close(_ round: Round, request: PushRequest, refusals: [PushRefusal]?) throws -> PushResponse {
        var record = round.record
        record.lastSeen = wall
        try store.setReplica(record)
        // Retiring an id takes its secret: otherwise any device of the tenant could retire another's,
        // which garbage collection then stops waiting for (it is sent back to bootstrap). An id bound
        // to no secret cannot be proved, and is left as it is: its own device binds it at its next
        // push (a 409 included), and then retires it with the secret.
        if let retired = request.retiredReplica, retired != request.replica, var old = try store.replica(retired), !old.isRetired,
            try ReplicaSecret.check(request.retiredReplicaSecret, against: old) == .matches
        {
            old.isRetired = true
            try store.setReplica(old)
            // No device pushes under the id again: nobody is left to hear of its refusals.
            try store.forgetRefusals(replica: retired, through: .max)
        }
        // The refusals kept stay bounded: trimmed when a push answers with some (those it records
        // among them), not at every push.
        if refusals?.isEmpty == false { try store.forgetRefusals(replica: request.replica, keepingNewest: Self.keptRefusals) }
        try store.setClock(round.clock.last)
        var response = PushResponse(
            outcome: .accepted, appliedThrough: record.appliedThrough, digest: record.digest, serverTime: round.clock.last,
            refusals: refusals)
        if !round.memo.placed.isEmpty { response.spaces = round.memo.placed }
        if !round.loggedTransactions.isEmpty { response.logged = round.loggedTransactions }
        response.acceptsTransactionParts = true
        return response
    }

    /// What handling a push's transactions carries from one to the next: the replica's record, the
    /// clock, where rows were placed, the user's rights, the refusals so far.
    struct Round {
        var record: ReplicaRecord
        var clock: HybridLogicalClock
        var memo: PlacementMemo
        var rights: SpaceRights?
        var denials: [Int64: Denial] = [:]
        var refusedBytes = 0
        /// Transactions whose text operations would wait in the server's text, found while the round
        /// goes on (each later edit of their writer waits too: all are found in one round).
        var waitingText: [RefusedWhileApplied.Refused] = []
        /// The log batch of the transaction being applied (the sequence number of its first change):
        /// one for the whole of a transaction sent in parts. `nil` before a transaction's first change.
        var batch: Int64?
        /// Where each applied transaction's last change went in the log, told back to the device.
        var loggedTransactions: [LoggedTransaction] = []
        /// Where the transaction being applied last went in the log; whether the store held some of it
        /// already (pushed before under another replica id: logged then).
        var lastLogged: Int64?
        var alreadyHeld = false

        /// Ends the round with the transactions whose text would wait, when there are any.
        func refuseWaitingText() throws {
            guard !waitingText.isEmpty else { return }
            throw RefusedWhileApplied(refused: waitingText)
        }

        /// Starts a transaction (all the slices of one sent in parts are one).
        mutating func begin() {
            batch = nil
            lastLogged = nil
            alreadyHeld = false
        }

        /// Notes where the applied transaction stamped `stamp` went in the log (0: nowhere, it
        /// changed nothing).
        mutating func noteLogged(stamp: SyncStamp) {
            if let lastLogged {
                loggedTransactions.append(LoggedTransaction(stamp: stamp, sequence: lastLogged))
            } else if !alreadyHeld {
                loggedTransactions.append(LoggedTransaction(stamp: stamp, sequence: 0))
            }
        }

        /// What became of a transaction (or a slice of one sent in parts).
        enum Outcome: Equatable {
            /// Applied.
            case applied
            /// Refused, and recorded as handled.
            case refused
            /// Refused, but its refusal would pass the answer's bytes: left, with every later one, to
            /// the device's next push.
            case stop
        }

        /// Checks and applies `transaction` (all of it, or the slice of a transaction sent in parts
        /// that `countsRefusedRows` leaves out of the answer's bytes: its refusal carries no rows).
        /// The caller moves the record's watermark.
        mutating func handle(_ transaction: SyncTransaction, applier: PushApplier, countsRefusedRows: Bool = true) throws -> Outcome {
            let store = applier.store
            let placer = applier.placer
            // The role check's reason comes first; the app's own hook (asked about every change before
            // the store transaction began; `denials` holds what it denied) after it.
            var plan: [SpaceCheck.Step]?
            if let placer, var checking = rights {
                let saved = checking.saved
                switch try SpaceCheck(store: store, placer: placer, textColumns: applier.textColumns).verdict(of: transaction, rights: &checking, memo: &memo) {
                case .refused(let denial):
                    denials[transaction.id] = denial
                case .allowed(let steps):
                    plan = steps
                    if denials[transaction.id] != nil { checking.restore(saved) }
                }
                rights = checking
            }
            if let denial = denials[transaction.id] {
                if countsRefusedRows {
                    // The rows the refusal sends back, counted before it is recorded: one that passes the
                    // answer's bytes is left to the device's next push. Counted as the answer shows them
                    // (rows the user may not read count nothing, as they are answered absent), so how far
                    // a push is handled tells nothing of rows outside the user's spaces. A refusal whose
                    // rows pass the bytes alone goes without them, but takes a whole answer's share.
                    var counted = RefusalRows()
                    var readable = placer == nil ? nil : rights
                    let fits = try counted.add(transaction.changes, store: store, rights: &readable, upTo: applier.maximumRefusalBytes)
                    let answer = fits ? counted.bytes : applier.maximumRefusalBytes
                    if refusedBytes > 0, refusedBytes + answer > applier.maximumRefusalBytes { return .stop }
                    refusedBytes += answer
                }
                try store.recordRefusal(
                    RefusedTransaction(
                        transactionID: transaction.id, table: denial.change.table, key: denial.change.key, reason: denial.reason),
                    replica: record.replica)
                return .refused
            }
            try apply(transaction, plan: plan, applier: applier, origin: record.replica)
            return .applied
        }

        /// Merges, logs and places each change of an allowed transaction.
        private mutating func apply(_ transaction: SyncTransaction, plan: [SpaceCheck.Step]?, applier: PushApplier, origin: String) throws {
            let store = applier.store
            let resolver = applier.resolver
            let user = applier.user
            // Rows a move in this transaction carried: their placement is the store's, not the check's.
            var carried: Set<RowAddress> = []
            for (index, change) in transaction.changes.enumerated() {
                let address = RowAddress(table: change.table, key: change.key)
                let step = plan?[index]
                // The check played the change already: its merge and placement are the applier's, unless
                // a resolver may change the row after the merge.
                let planned = resolver == nil ? step : nil
                let previous = try planned.map { $0.previous ?? RowRegister() } ?? applier.heldState(address, step: step)
                var state = previous
                if let planned { state = planned.merged } else { MergeRule.apply(change, to: &state, textColumns: applier.textColumns[change.table]) }
                if let waiting = applier.waitingText(change, merged: state, previous: previous, transaction: transaction.id),
                   !waitingText.contains(where: { $0.transactionID == transaction.id })
                {
                    waitingText.append(waiting)
                }
                // A change the row already holds (the same write pushed again by a file that took a new
                // replica id) or that loses everywhere changes nothing, and is not logged: devices would
                // apply it to no effect.
                guard state != previous else {
                    clock.observe(change.stamp.time)
                    if previous.holds(change.stamp) { alreadyHeld = true }
                    continue
                }
                guard let placer = applier.placer else {
                    let logged = try store.appendChange(change, origin: origin, batch: batch)
                    batch = logged.batch
                    lastLogged = logged.sequence
                    let sequence = try applier.resolve(change, previous: previous, merged: &state, batch: batch, clock: &clock) ?? logged.sequence
                    try applier.checkSize(of: state, previous: previous, change: change, transaction: transaction.id)
                    try store.setRowState(state, table: change.table, key: change.key, sequence: sequence)
                    try applier.notePointers(of: change, from: previous, to: state)
                    clock.observe(change.stamp.time)
                    continue
                }
                let wasHeld = previous != RowRegister()
                var held: RowPlacement?
                if wasHeld {
                    if let step, carried.isEmpty || !carried.contains(address) {
                        held = step.previousPlacement
                    } else {
                        held = try memo.placement(of: address, in: store)
                    }
                }
                // The check's placement holds while no row of the push was carried by a move (the
                // check does not play those) and the row is as it saw it.
                var placement: RowPlacement
                if let planned, carried.isEmpty, held == planned.previousPlacement {
                    placement = planned.placement
                } else {
                    placement = try applier.place(change.table, change.key, state, previous: held, placer: placer, memo: &memo)
                }
                let logged = try store.appendChange(
                    change, origin: origin, batch: batch, space: placement.space,
                    movedFrom: held.flatMap { $0.space == placement.space ? nil : $0.space })
                batch = logged.batch
                lastLogged = logged.sequence
                var sequence = logged.sequence
                if let resolved = try applier.resolve(change, previous: previous, merged: &state, batch: batch, clock: &clock) {
                    sequence = resolved
                    placement = try applier.place(change.table, change.key, state, previous: held, placer: placer, memo: &memo)
                }
                try applier.checkSize(of: state, previous: previous, change: change, transaction: transaction.id)
                try store.setRowState(state, table: change.table, key: change.key, sequence: sequence, placement: placement)
                try applier.notePointers(of: change, from: previous, to: state)
                memo.note(placement, of: address, byChange: true)
                if step?.isRoot ?? (placer.resolve(change.table).placement == .root), !wasHeld, let user, state.isVisible,
                    try store.members(of: placement.space).isEmpty
                {
                    // The user who creates a root row owns its space, from the same point of the sequence.
                    try store.setMember(user, role: .owner, in: placement.space, sequence: sequence)
                }
                if let held, held.space != placement.space {
                    carried.formUnion(try SpaceMoves(store: store, origin: origin).carry(
                        children: address, to: placement.space, stamp: change.stamp, batch: batch, memo: &memo))
                }
                clock.observe(change.stamp.time)
            }
        }
    }

    /// Records which attachments the changed row points at, when that changed: a row's readers may
    /// read the attachments it points at (``SyncAttachmentRightsStoreTransaction``). A deleted row points at none.
    func notePointers(of change: SyncChange, from previous: RowRegister, to state: RowRegister) throws {
        guard !attachmentColumns.isEmpty, let columns = attachmentColumns[change.table.lowercased()] else { return }
        let before = previous.isVisible ? AttachmentPointers.ids(in: previous.visibleValues, columns: columns) : []
        let after = state.isVisible ? AttachmentPointers.ids(in: state.visibleValues, columns: columns) : []
        guard before != after else { return }
        let added = after.subtracting(before)
        try store.setAttachmentPointers(
            table: change.table, key: change.key, adding: added, removing: before.subtracting(after), at: wall,
            writer: user, vouched: try vouched(added))
    }

    /// The attachments of `ids` the pushing user may read already (they uploaded them, or a vouched
    /// pointer of a space they are a member of points at them): pointers to these let the row's
    /// readers read them. The others wait for the user's upload of the bytes (see
    /// ``/BoutiqueSyncServer/SyncAttachmentRightsStoreTransaction``). Without a user (a server with
    /// no users), every pointer is vouched for, as every device reads every row.
    private func vouched(_ ids: Set<String>) throws -> Set<String> {
        guard let user, !ids.isEmpty else { return ids }
        return try ids.filter { id in try SyncServer.user(user, mayRead: id, in: store) }
    }

    /// Refuses a change that grows a row's state past the limit. A row stored larger before the limit
    /// was set may still shrink or stay as it is.
    func checkSize(of state: RowRegister, previous: RowRegister, change: SyncChange, transaction: Int64) throws {
        guard maximumRowStateBytes < Int.max else { return }
        let size = state.record().count
        guard size > maximumRowStateBytes, size > previous.record().count else { return }
        throw RefusedWhileApplied(refused: [RefusedWhileApplied.Refused(
            transactionID: transaction, change: change,
            reason: "transaction \(transaction) would grow row \(String(describing: change.key).prefix(80)) of '\(change.table.prefix(100))' to \(size) bytes; the server keeps rows of at most \(maximumRowStateBytes) bytes",
            kind: .tooLarge)])
    }

    /// Adds the refusals the store kept for transactions of `request` the server handled already (pushed
    /// again because the answer was lost), so the device hears of them again: as the server decided
    /// then, not by checks run again on rows and members that changed since.
    private func recallRefusals(of request: PushRequest, handledThrough watermark: Int64, into denials: inout [Int64: Denial]) throws {
        let resent = request.transactions.filter { $0.id <= watermark }
        guard let first = resent.first, let last = resent.last else { return }
        for refused in try store.refusedTransactions(replica: request.replica, from: first.id, through: last.id) where denials[refused.transactionID] == nil {
            guard let transaction = resent.first(where: { $0.id == refused.transactionID }),
                let change = transaction.changes.first(where: { $0.table == refused.table && $0.key == refused.key }) ?? transaction.changes.first
            else { continue }
            denials[refused.transactionID] = Denial(change: change, reason: refused.reason)
        }
    }

    /// The state the store holds for a row before the change: as the transaction's check read it,
    /// or read now.
    func heldState(_ address: RowAddress, step: SpaceCheck.Step?) throws -> RowRegister {
        if let step { return step.previous ?? RowRegister() }
        return try store.rowState(table: address.table, key: address.key) ?? RowRegister()
    }

    /// Runs the resolver on a merged insert or update, logging and merging what it returns; the
    /// resolution's sequence number, `nil` when it changed nothing.
    func resolve(
        _ change: SyncChange, previous: RowRegister, merged state: inout RowRegister, batch: Int64?, clock: inout HybridLogicalClock
    ) throws -> Int64? {
        guard let resolver, change.kind != .delete,
            let columns = resolver(SyncConflict(table: change.table, key: change.key, change: change, previous: previous, merged: state)),
            !columns.isEmpty
        else { return nil }
        let resolution = SyncChange(
            table: change.table, key: change.key, kind: .update, columns: columns,
            stamp: SyncStamp(time: clock.tick(now: wall), replica: SyncServer.serverReplica))
        MergeRule.apply(resolution, to: &state, textColumns: textColumns[change.table])
        return try store.appendChange(resolution, origin: SyncServer.serverReplica, batch: batch).sequence
    }

    /// Where a row goes after a change, its parent looked up in the store (which holds the
    /// transaction's earlier changes already).
    func place(
        _ table: String, _ key: DatabaseValue, _ state: RowRegister, previous: RowPlacement?, placer: SpacePlacer,
        memo: inout PlacementMemo
    ) throws -> RowPlacement {
        try placer.placement(table: table, key: key, state: state, previous: previous, writer: user) { parent in
            try memo.placement(of: RowAddress(table: parent.table, key: parent.key), in: store)
        }
    }

    /// The refusals of the push's denied transactions handled `through` the watermark, each with the
    /// server's state of its rows: the rows the user may read; a row they may not read is sent as
    /// absent, so the device drops it.
    private func refusals(of request: PushRequest, _ denials: [Int64: Denial], through watermark: Int64) throws -> [PushRefusal]? {
        guard !denials.isEmpty else { return nil }
        var rights = try refusalRights()
        let answered = try request.transactions.compactMap { transaction -> PushRefusal? in
            guard transaction.id <= watermark, let denial = denials[transaction.id] else { return nil }
            var answer = RefusalRows()
            guard try answer.add(transaction.changes, store: store, rights: &rights, upTo: maximumRefusalBytes) else {
                return Self.refusalWithoutRows(
                    transactionID: transaction.id, table: denial.change.table, key: denial.change.key, message: denial.reason,
                    reason: denial.kind)
            }
            return PushRefusal(
                transactionID: transaction.id, table: denial.change.table, key: denial.change.key, reason: denial.kind,
                message: denial.reason, rows: answer.rows, absentRows: answer.absent)
        }
        return answered.isEmpty ? nil : answered
    }

    /// The user's rights to tell which rows a refusal may show (`nil`: trusted code, or no rules).
    func refusalRights() throws -> SpaceRights? {
        var rights = placer == nil ? nil : user.map { SpaceRights(store: store, user: $0) }
        try rights?.loadMemberships()
        return rights
    }

    /// The rows a refusal answers with: the server's state of each row the refused transaction
    /// touched that the user may read, the others as absent. A transaction whose rows' states pass an
    /// answer's bytes is refused without them (``refusalWithoutRows(transactionID:table:key:message:reason:)``:
    /// the device takes the server's version from a snapshot), so no answer carries more than a page's
    /// bytes of states, however many large rows one transaction touched.
    struct RefusalRows {
        var rows: [SnapshotRow] = []
        var absent: [SnapshotPosition] = []
        /// The bytes of the states in ``rows``.
        var bytes = 0

        /// Adds the rows `changes` touch; `false`, with the reading stopped, once their states pass
        /// `limit` bytes (the refusal then carries none of them).
        mutating func add(
            _ changes: [SyncChange], store: any SyncStoreTransaction, rights: inout SpaceRights?, upTo limit: Int = .max
        ) throws -> Bool {
            for change in changes {
                var state = try store.rowState(table: change.table, key: change.key)
                var space: SyncSpace?
                // The placement is read for a row the store does not hold too: a row the user cannot
                // see and one that does not exist are answered alike (absent), after the same lookups.
                if rights != nil, let placement = try store.placement(table: change.table, key: change.key), state != nil {
                    space = placement.space
                    if try rights?.role(in: placement.space) == nil { state = nil }
                }
                if let state {
                    bytes += state.record().count
                    if bytes > limit { return false }
                    rows.append(SnapshotRow(table: change.table, key: change.key, state: state, space: space))
                } else {
                    absent.append(SnapshotPosition(table: change.table, key: change.key))
                }
            }
            return true
        }
    }
}
