/// Checks a pushed transaction against its writer's roles before it is applied: every change needs
/// the right to write in the row's space before the change and in its space after it (moving a row
/// into a space is a write there), and deleting a root row needs its owner. The transaction's changes
/// are played in order on a scratch copy of the rows they touch, so a list created and filled in one
/// transaction is checked as the list's owner; what the play found is the applier's plan.
///
/// A change that touches a row the writer cannot see — in a space they are not in, or not held at all
/// (an update or delete of an unknown key, a foreign key set to an unknown row) — is refused with one
/// reason that names nothing of it (``notPermitted(_:)``), so that refusals cannot be used to learn
/// which keys exist in other users' spaces.
struct SpaceCheck {
    let store: any SyncStoreTransaction
    let placer: SpacePlacer
    /// The tenant's collaborative text columns, merged as text.
    let textColumns: TextColumns

    /// What the check found: the first change the user may not make, with why, or what each change
    /// does (which the applier uses rather than reading, merging and placing again).
    enum Verdict {
        case refused(PushApplier.Denial)
        case allowed([Step])
    }

    /// One change of an allowed transaction, played on the rows as the transaction's earlier changes
    /// left them.
    struct Step {
        /// The row's state before the change (the store's: a transaction changes a row once), `nil`
        /// for a row the store did not hold.
        var previous: RowRegister?
        /// Its placement before the change, `nil` for a row the store did not hold.
        var previousPlacement: RowPlacement?
        /// The row's state after the change.
        var merged: RowRegister
        /// Its placement after the change.
        var placement: RowPlacement
        /// Whether the row is a root row (its own space).
        var isRoot: Bool
    }

    /// Checks `transaction`. A refused transaction leaves `rights` as it found it; `memo` only ever
    /// gains what the store holds.
    func verdict(of transaction: SyncTransaction, rights: inout SpaceRights, memo: inout PlacementMemo) throws -> Verdict {
        let saved = rights.saved
        var steps: [Step] = []
        steps.reserveCapacity(transaction.changes.count)
        // Where each row the transaction changed is in `steps`, for a later change that follows it (a
        // list created and filled at once): only a transaction of several changes needs it. A
        // transaction changes a row once (`PushValidation` refuses one that does not).
        var placed = RowScratch<Int>()
        let tracksRows = transaction.changes.count > 1
        let user = rights.user
        // The rows the transaction changes, for a foreign key that points at a row a later change of
        // the same transaction inserts (a device that defers its foreign keys may write a child first).
        let changedRows = tracksRows ? Set(transaction.changes.map { RowAddress(table: $0.table, key: $0.key) }) : []
        for change in transaction.changes {
            let id = RowAddress(table: change.table, key: change.key)
            let previous = try store.rowState(table: change.table, key: change.key)
            let rule = placer.resolve(change.table).placement
            // An update or a delete of a row the store does not hold, in a table the rules name, is
            // refused as one of a row in a space the writer is not in: the same answer, after the same
            // lookups, so that a user cannot tell a key that exists elsewhere from one that does not.
            let unheldEdit = previous == nil && change.kind != .insert && rule != .common
            let previousPlacement = try previous == nil && !unheldEdit ? nil : memo.placement(of: id, in: store)
            // The writer's right to the row as it is comes first, before its new place is worked out:
            // a row they cannot see, or that is not there, is refused after the row's own lookups
            // only, whichever it is.
            if unheldEdit {
                return try refused(change, Self.notPermitted(user), rights: &rights, saved: saved)
            }
            if let previousPlacement, let reason = try refusal(user: user, writing: previousPlacement.space, rights: &rights) {
                return try refused(change, reason, rights: &rights, saved: saved)
            }
            var state = previous ?? RowRegister()
            MergeRule.apply(change, to: &state, textColumns: textColumns[change.table])
            // Whether the row a follower's foreign key points at was found (`nil`: no parent asked for).
            var parentFound: Bool?
            let placement = try placer.placement(
                table: change.table, key: change.key, state: state, previous: previousPlacement, writer: user
            ) { parent in
                let address = RowAddress(table: parent.table, key: parent.key)
                if tracksRows, let step = placed[address] {
                    parentFound = true
                    return steps[step].placement
                }
                let found = try memo.placement(of: address, in: store)
                parentFound = found != nil || changedRows.contains(address)
                return found
            }
            let isRoot = rule == .root
            // Only an insert creates a space: the applier makes the writer owner of a root row that exists,
            // and an update alone leaves none (a space with no owner, where nobody could insert it again).
            if isRoot, previous == nil, change.kind == .insert, try store.members(of: placement.space).isEmpty {
                try rights.created(placement.space)
            }
            var problem: String?
            if parentFound == false, case .follower(let column) = rule, change.assigns(column) {
                // A foreign key the writer set to a row the server does not hold is answered as one set
                // to a row in a space the writer is not in, after the same lookups: otherwise
                // pointing a reminder at a guessed list's key would tell whether that list exists.
                problem = Self.notPermitted(user)
            } else if let reason = try refusal(user: user, writing: placement.space, rights: &rights) {
                problem = reason
            } else if isRoot, previous?.isVisible == true, !state.isVisible, try rights.role(in: placement.space) != .owner {
                problem = "user '\(user)' may not delete \(change.table) \(change.key): only its owner deletes it"
            }
            if let problem { return try refused(change, problem, rights: &rights, saved: saved) }
            if tracksRows { placed.note(steps.count, for: id) }
            steps.append(Step(
                previous: previous, previousPlacement: previousPlacement, merged: state, placement: placement, isRoot: isRoot))
        }
        return .allowed(steps)
    }

    /// Refuses the transaction for `change`, with the roles as they were before it.
    private func refused(_ change: SyncChange, _ problem: String, rights: inout SpaceRights, saved: [SyncSpace: SyncRole]?) throws
        -> Verdict
    {
        // Every refusal has read the user's memberships, whichever row it is about and whether that
        // row exists.
        try rights.loadMemberships()
        rights.restore(saved)
        return .refused(PushApplier.Denial(change: change, reason: problem))
    }

    private func refusal(user: String, writing space: SyncSpace, rights: inout SpaceRights) throws -> String? {
        switch try rights.role(in: space) {
        case .editor?, .owner?: return nil
        // A viewer sees the space, so naming it tells them nothing new.
        case .viewer?: return "user '\(user)' is a viewer of \(space) and may not change its rows"
        case nil: return Self.notPermitted(user)
        }
    }

    /// The one reason given for a change that touches a row the writer cannot see: a row in a space
    /// they are not in, or one that does not exist. It names no space, owner or row, and is the same
    /// in every such case, so that a refusal tells a user nothing they could not see already.
    static func notPermitted(_ user: String) -> String {
        "user '\(user)' may not make this change: it touches a row outside the spaces the user is in, or one that does not exist"
    }
}

extension SyncChange {
    /// Whether the change writes `column` (lowercased): an insert writes every column.
    func assigns(_ column: String) -> Bool {
        kind == .insert || columns.contains { $0.name.lowercased() == column }
    }
}

/// A row by table and key.
struct RowAddress: Hashable, Sendable {
    let table: String
    let key: DatabaseValue
}
