/// The merge rule every device and the server apply: per column, the last writer wins by
/// (stamp, replica); a row's existence is a register too (a delete kills the row, an update never
/// brings it back, a later insert does).
///
/// ```swift
/// var state = RowRegister()
/// let effect = MergeRule.apply(change, to: &state)
/// if effect.changedColumns.contains("title") { … }
/// ```
///
/// The rule is a join: merging states commutes, repeats harmlessly and can be grouped in any way, so
/// changes may arrive in any order, more than once, and every replica still ends with the same rows.
public enum MergeRule {
    /// What applying a change did to a row's state.
    public struct Effect: Hashable, Sendable {
        /// Whether the row was visible before.
        public var wasVisible: Bool
        /// Whether the row is visible after.
        public var isVisible: Bool
        /// The columns whose winning value changed.
        public var changedColumns: Set<String>
        /// The columns whose value a newer delete hid: they belong to the deleted row, so a row revived
        /// since shows them as unset.
        public var hiddenColumns: Set<String>

        /// An effect.
        public init(wasVisible: Bool, isVisible: Bool, changedColumns: Set<String>, hiddenColumns: Set<String> = []) {
            self.wasVisible = wasVisible
            self.isVisible = isVisible
            self.changedColumns = changedColumns
            self.hiddenColumns = hiddenColumns
        }

        /// Whether anything the row shows may have changed.
        public var changesRow: Bool { wasVisible != isVisible || !changedColumns.isEmpty || !hiddenColumns.isEmpty }
    }

    /// The join of two states. `textColumns` are the row's table's collaborative text columns
    /// (lowercased), whose values merge as text; every other column's by last-writer-wins.
    public static func merge(_ a: RowRegister, _ b: RowRegister, textColumns: Set<String> = []) -> RowRegister {
        var result = a
        merge(b, into: &result, textColumns: textColumns)
        return result
    }

    /// Merges `other` into `state`, returning what changed.
    @discardableResult
    public static func merge(_ other: RowRegister, into state: inout RowRegister, textColumns: Set<String> = []) -> Effect {
        if state.existence == nil, state.lastDelete == nil, state.cells.isEmpty {
            // Nothing known yet (most rows of a first sync): the other state is the merge.
            state = other
            return Effect(wasVisible: false, isVisible: other.isVisible, changedColumns: Set(other.cells.keys))
        }
        let wasVisible = state.isVisible
        switch (state.existence, other.existence) {
        case (let mine?, let theirs?): state.existence = ExistenceRegister.merge(mine, theirs)
        case (nil, let theirs?): state.existence = theirs
        default: break
        }
        var hidden: Set<String> = []
        if let theirs = other.lastDelete, state.lastDelete.map({ $0 < theirs }) ?? true {
            let before = state
            state.lastDelete = theirs
            for (name, cell) in before.cells where before.isCurrent(cell) && !state.isCurrent(cell) { hidden.insert(name) }
        }
        var changed: Set<String> = []
        for (name, cell) in other.cells {
            if let mine = state.cells[name] {
                let winner = CellRegister.merge(mine, cell, asText: textColumns.contains(name))
                if winner != mine {
                    state.cells[name] = winner
                    changed.insert(name)
                }
            } else {
                state.cells[name] = cell
                changed.insert(name)
            }
        }
        for name in changed {
            if let cell = state.cells[name], state.isCurrent(cell) { hidden.remove(name) }
        }
        return Effect(wasVisible: wasVisible, isVisible: state.isVisible, changedColumns: changed, hiddenColumns: hidden)
    }

    /// Merges `other` into `state` without working out what changed (for callers that compare states
    /// themselves).
    public static func join(_ other: RowRegister, into state: inout RowRegister, textColumns: Set<String> = []) {
        if state.existence == nil, state.lastDelete == nil, state.cells.isEmpty {
            state = other
            return
        }
        switch (state.existence, other.existence) {
        case (let mine?, let theirs?): state.existence = ExistenceRegister.merge(mine, theirs)
        case (nil, let theirs?): state.existence = theirs
        default: break
        }
        if let theirs = other.lastDelete, state.lastDelete.map({ $0 < theirs }) ?? true { state.lastDelete = theirs }
        for (name, cell) in other.cells {
            if let mine = state.cells[name] {
                state.cells[name] = CellRegister.merge(mine, cell, asText: textColumns.contains(name))
            } else {
                state.cells[name] = cell
            }
        }
    }

    /// The state a single change describes.
    public static func register(for change: SyncChange) -> RowRegister {
        var row = RowRegister()
        row.cells.reserveCapacity(change.columns.count)
        switch change.kind {
        case .insert:
            row.existence = ExistenceRegister(exists: true, stamp: change.stamp)
        case .delete:
            row.existence = ExistenceRegister(exists: false, stamp: change.stamp)
            row.lastDelete = change.stamp
        case .update:
            break
        }
        for column in change.columns {
            row.cells[column.name] = CellRegister(value: column.value, stamp: change.stamp)
        }
        return row
    }

    /// Applies one change to a row's state.
    @discardableResult
    public static func apply(_ change: SyncChange, to state: inout RowRegister, textColumns: Set<String> = []) -> Effect {
        merge(register(for: change), into: &state, textColumns: textColumns)
    }
}
