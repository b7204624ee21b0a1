extension CapturedTransaction {
    /// Drops the captured changes from `mark` on.
    mutating func discardChanges(from mark: Int) {
        guard pending.count > mark else { return }
        discardChanges(in: mark..<pending.count)
    }

    /// Drops the captured changes in `range`, the changes of one statement (those of the statements after
    /// it stay), and moves the marks after it back.
    mutating func discardChanges(in range: Range<Int>) {
        guard !range.isEmpty, range.lowerBound < pending.count else { return }
        let range = range.clamped(to: 0..<pending.count)
        pending.removeSubrange(range)
        func moved(_ mark: Int) -> Int {
            mark <= range.lowerBound ? mark : max(range.lowerBound, mark - range.count)
        }
        for index in frames.indices {
            frames[index].mark = moved(frames[index].mark)
            frames[index].end = frames[index].end.map(moved)
        }
        for index in savepoints.indices { savepoints[index].mark = moved(savepoints[index].mark) }
        schemaMark = schemaMark.map(moved)
    }
}
