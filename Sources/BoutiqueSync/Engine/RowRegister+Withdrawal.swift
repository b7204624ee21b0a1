extension RowRegister {
    /// The state without the writes stamped `withdrawn` (transactions the server refused): each of
    /// their cells, and their existence or delete, becomes the server's (`server`), and everything else
    /// stays as this device knows it.
    ///
    /// ```swift
    /// let undone = local.withdrawing([refusedStamp], server: serverState)
    /// ```
    ///
    /// Only what the refused writes held is taken from the server: the rest of the server's state
    /// (other devices' writes this one has not pulled yet) arrives with the pull that carries it, which
    /// is where what it discards of this device's work is told (``SyncLoss``). Taking the server's whole
    /// state here would put those writes in place silently, and the pull would then find nothing to tell.
    func withdrawing(_ withdrawn: Set<SyncStamp>, server: RowRegister) -> RowRegister {
        var state = self
        for (name, cell) in cells where withdrawn.contains(cell.stamp) { state.cells[name] = server.cells[name] }
        if let existence, withdrawn.contains(existence.stamp) { state.existence = server.existence }
        if let lastDelete, withdrawn.contains(lastDelete) { state.lastDelete = server.lastDelete }
        return state
    }
}
