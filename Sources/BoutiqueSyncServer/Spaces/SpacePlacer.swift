/// Works out a row's space from its state, by the rules: a root row is its own space, a follower is in
/// the space of the row its foreign key points to, a private row in its writer's space, anything else
/// in the common space.
struct SpacePlacer {
    /// The rules, the shapes and what was resolved of them: one reference, so that a placer handed from
    /// the push to each transaction's check costs one retain rather than one per collection.
    private let storage: Storage

    /// The rules rows are placed by.
    var rules: SyncRules { storage.rules }
    /// The synced tables' shapes by lowercased name: which table a follower's column points to.
    var shapes: [String: SyncTableShape] { storage.shapes }

    init(rules: SyncRules, shapes: [String: SyncTableShape]) {
        storage = Storage(rules: rules, shapes: shapes)
    }

    /// What the rules make of a table.
    struct Resolved {
        /// Its rows' placement.
        let placement: SyncRules.Placement
        /// The table a follower's column points to.
        let parent: String?
        /// Whether a follower points to it.
        let isParent: Bool
    }

    /// Table names as devices spell them are resolved once: every change of a push names its table,
    /// and the rules match names in any case, which would otherwise lowercase each name several times
    /// a change. A placer lives for one push, on one task.
    private final class Storage {
        let rules: SyncRules
        let shapes: [String: SyncTableShape]
        /// The tables followers point to, lowercased.
        let parentTables: Set<String>
        var resolved: [String: Resolved] = [:]
        /// The latest few tables asked about, newest first: a push's changes mostly follow each other
        /// in a table or two (reminders and their list), and comparing names beats hashing them.
        var recent: [(table: String, resolved: Resolved)] = []

        init(rules: SyncRules, shapes: [String: SyncTableShape]) {
            self.rules = rules
            self.shapes = shapes
            parentTables = Set(rules.follows.keys.compactMap { rules.parent(of: $0, shapes: shapes)?.lowercased() })
        }
    }

    /// What the rules make of `table` (any case).
    func resolve(_ table: String) -> Resolved {
        let storage = self.storage
        if let hit = storage.recent.first(where: { $0.table == table }) { return hit.resolved }
        let found = storage.resolved[table] ?? Resolved(
            placement: storage.rules.placement(of: table), parent: storage.rules.parent(of: table, shapes: storage.shapes),
            isParent: storage.parentTables.contains(table.lowercased()))
        storage.resolved[table] = found
        if storage.recent.count == 4 { storage.recent.removeLast() }
        storage.recent.insert((table, found), at: 0)
        return found
    }

    /// The placement of row `key` of `table` whose state is now `state`.
    ///
    /// - `previous`: its placement before the change, `nil` for a row the server did not hold.
    /// - `writer`: the user whose change it is; a new private row is theirs.
    /// - `lookup`: the placement of another row (the parent), as the transaction sees it so far.
    ///
    /// A deleted row stays where it was: its tombstone must reach the devices that held it. A follower
    /// whose parent the server does not hold (or whose key is null) stays where it was, or goes to its
    /// writer's private space: it is seen by nobody it could not have been shown to, and a later write
    /// that points it at a parent the writer may write in moves it there. (A user's change that sets
    /// the foreign key to a row the server does not hold is refused before it is placed, as
    /// ``SpaceCheck`` says; such a row comes from trusted code, or from a change that left the key.)
    func placement(
        table: String, key: DatabaseValue, state: RowRegister, previous: RowPlacement?, writer: String?,
        lookup: (SnapshotPosition) throws -> RowPlacement?
    ) rethrows -> RowPlacement {
        if let previous, !state.isVisible { return previous }
        let resolved = resolve(table)
        switch resolved.placement {
        case .common:
            return .common
        case .root:
            return RowPlacement(space: .shared(table: table, key: key))
        case .private:
            if let previous, previous.space.privateUser != nil { return previous }
            return RowPlacement(space: .private(user: writer ?? ""))
        case .follower(let column):
            let fallback = previous?.space ?? .private(user: writer ?? "")
            guard let parentTable = resolved.parent, let cell = state.cells[column], state.isCurrent(cell),
                cell.value != .null
            else { return RowPlacement(space: fallback) }
            let parent = SnapshotPosition(table: parentTable, key: cell.value)
            guard let found = try lookup(parent) else { return RowPlacement(space: fallback, parent: parent) }
            return RowPlacement(space: found.space, parent: parent)
        }
    }
}
