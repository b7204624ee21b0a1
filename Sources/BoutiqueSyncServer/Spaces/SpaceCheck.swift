/// Checks a pushed transaction against its writer's roles before it is applied: every change needs
/// the right to write in the row's space before the change and in its space after it (moving a row
/// into a space is a write there), and deleting a root row needs its owner. The transaction's changes
/// are played in order on a scratch copy of the rows they touch, so a list created and filled in one
/// transaction is checked as the list's owner; what the play found is the applier's plan.
struct SpaceCheck {
    let store: any SyncStoreTransaction
    let placer: SpacePlacer

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
        for change in transaction.changes {
            let id = RowAddress(table: change.table, key: change.key)
            let previous = try store.rowState(table: change.table, key: change.key)
            let previousPlacement = try previous == nil ? nil : memo.placement(of: id, in: store)
            var state = previous ?? RowRegister()
            MergeRule.apply(change, to: &state)
            let placement = try placer.placement(
                table: change.table, key: change.key, state: state, previous: previousPlacement, writer: user
            ) { parent in
                let address = RowAddress(table: parent.table, key: parent.key)
                if tracksRows, let step = placed[address] { return steps[step].placement }
                return try memo.placement(of: address, in: store)
            }
            let isRoot = placer.resolve(change.table).placement == .root
            // Only an insert creates a space: the applier makes the writer owner of a root row that exists,
            // and an update alone leaves none (a space with no owner, where nobody could insert it again).
            if isRoot, previous == nil, change.kind == .insert, try store.members(of: placement.space).isEmpty {
                try rights.created(placement.space)
            }
            var problem: String?
            if let previousPlacement, let reason = try refusal(user: user, writing: previousPlacement.space, rights: &rights) {
                problem = reason
            } else if let reason = try refusal(user: user, writing: placement.space, rights: &rights) {
                problem = reason
            } else if isRoot, previous?.isVisible == true, !state.isVisible, try rights.role(in: placement.space) != .owner {
                problem = "user '\(user)' may not delete \(change.table) \(change.key): only its owner deletes it"
            }
            if let problem {
                rights.restore(saved)
                return .refused(PushApplier.Denial(change: change, reason: problem))
            }
            if tracksRows { placed.note(steps.count, for: id) }
            steps.append(Step(
                previous: previous, previousPlacement: previousPlacement, merged: state, placement: placement, isRoot: isRoot))
        }
        return .allowed(steps)
    }

    private func refusal(user: String, writing space: SyncSpace, rights: inout SpaceRights) throws -> String? {
        switch try rights.role(in: space) {
        case .editor?, .owner?: return nil
        case .viewer?: return "user '\(user)' is a viewer of \(space) and may not change its rows"
        case nil: return "user '\(user)' is not a member of \(space)"
        }
    }
}

/// A row by table and key.
struct RowAddress: Hashable, Sendable {
    let table: String
    let key: DatabaseValue
}
