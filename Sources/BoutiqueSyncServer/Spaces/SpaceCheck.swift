/// Checks a pushed transaction against its writer's roles before it is applied: every change needs
/// the right to write in the row's space before the change and in its space after it (moving a row
/// into a space is a write there), and deleting a root row needs its owner. The transaction's changes
/// are played in order on a scratch copy of the rows they touch, so a list created and filled in one
/// transaction is checked as the list's owner.
struct SpaceCheck {
    let store: any SyncStoreTransaction
    let placer: SpacePlacer

    /// What the check found: the first change the user may not make, with why, or the state and
    /// placement each row of the transaction had before it (which the applier uses rather than reading
    /// them again).
    enum Verdict {
        case refused(PushApplier.Denial)
        case allowed(Before)
    }

    /// The rows of an allowed transaction as the store held them before it: `nil` for a row it did
    /// not hold.
    struct Before {
        var states: [RowAddress: RowRegister?] = [:]
        var placements: [RowAddress: RowPlacement?] = [:]
    }

    /// Checks `transaction`. A refused transaction leaves `rights` as it found it; `memo` only ever
    /// gains what the store holds.
    func verdict(of transaction: SyncTransaction, rights: inout SpaceRights, memo: inout PlacementMemo) throws -> Verdict {
        let saved = rights.saved
        var before = Before()
        var states: [RowAddress: RowRegister] = [:]
        var placements: [RowAddress: RowPlacement] = [:]
        let user = rights.user
        for change in transaction.changes {
            let id = RowAddress(table: change.table, key: change.key)
            let previous = try states[id] ?? store.rowState(table: change.table, key: change.key)
            let previousPlacement = try placements[id] ?? (previous == nil ? nil : memo.placement(of: id, in: store))
            if states[id] == nil {
                before.states[id] = .some(previous)
                before.placements[id] = .some(previousPlacement)
            }
            var state = previous ?? RowRegister()
            MergeRule.apply(change, to: &state)
            let placement = try placer.placement(
                table: change.table, key: change.key, state: state, previous: previousPlacement, writer: user
            ) { parent in
                let address = RowAddress(table: parent.table, key: parent.key)
                return try placements[address] ?? memo.placement(of: address, in: store)
            }
            let isRoot = placer.rules.placement(of: change.table) == .root
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
            states[id] = state
            placements[id] = placement
        }
        return .allowed(before)
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
