extension RowRegister {
    /// The state without the writes stamped `withdrawn` (transactions the server refused): each of
    /// their cells, and their existence or delete, becomes the server's (`server`), and everything else
    /// stays as this device knows it. A cell that replaced an earlier one of this device's (`restoring`,
    /// from ``SupersededCells``) gives that one back instead: the merge with the server's state then
    /// judges it, as it would have had the refused write never been made.
    ///
    /// ```swift
    /// let undone = local.withdrawing([refusedStamp], server: serverState, restoring: ["title": earlierEdit])
    /// ```
    ///
    /// Only what the refused writes held is taken from the server: the rest of the server's state
    /// (other devices' writes this one has not pulled yet) arrives with the pull that carries it, which
    /// is where what it discards of this device's work is told (``SyncLoss``). Taking the server's whole
    /// state here would put those writes in place silently, and the pull would then find nothing to tell.
    func withdrawing(_ withdrawn: Set<SyncStamp>, server: RowRegister, restoring: [String: CellRegister] = [:]) -> RowRegister {
        var state = self
        for (name, cell) in cells where withdrawn.contains(cell.stamp) { state.cells[name] = restoring[name] ?? server.cells[name] }
        if let existence, withdrawn.contains(existence.stamp) { state.existence = server.existence }
        if let lastDelete, withdrawn.contains(lastDelete) { state.lastDelete = server.lastDelete }
        return state
    }
}
