/// Checks a pushed transaction against its writer's roles before it is applied: every change needs
/// the right to write in the row's space before the change and in its space after it (moving a row
/// into a space is a write there), and deleting a root row needs its owner. The transaction's changes
/// are played in order on a scratch copy of the rows they touch, so a list created and filled in one
/// transaction is checked as the list's owner.
struct SpaceCheck {
    let store: any SyncStoreTransaction
    let placer: SpacePlacer

    /// The first change of `transaction` the user may not make, with why; `nil` when they may make all.
    /// A refused transaction leaves `rights` as it found it.
    func denial(of transaction: SyncTransaction, rights: inout SpaceRights) throws -> PushApplier.Denial? {
        let saved = rights.saved
        var states: [RowAddress: RowRegister] = [:]
        var placements: [RowAddress: RowPlacement] = [:]
        let user = rights.user
        for change in transaction.changes {
            let id = RowAddress(table: change.table, key: change.key)
            let previous = try states[id] ?? store.rowState(table: change.table, key: change.key)
            let previousPlacement = try placements[id] ?? (previous == nil ? nil : store.placement(table: change.table, key: change.key))
            var state = previous ?? RowRegister()
            MergeRule.apply(change, to: &state)
            let placement = try placer.placement(
                table: change.table, key: change.key, state: state, previous: previousPlacement, writer: user
            ) { parent in
                try placements[RowAddress(table: parent.table, key: parent.key)] ?? store.placement(table: parent.table, key: parent.key)
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
                return PushApplier.Denial(change: change, reason: problem)
            }
            states[id] = state
            placements[id] = placement
        }
        return nil
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
