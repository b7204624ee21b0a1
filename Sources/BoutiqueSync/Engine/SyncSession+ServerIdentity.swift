extension SyncSession {
    /// Takes up the key the file's progress with this transport's address was kept under the last
    /// time a reply named its server (``ServerAlias``): the same server reached through another
    /// spelling of its address, or with other credentials, finds the progress it made.
    func resolveServerAlias() async throws {
        let address = transport.serverIdentifier
        guard let known = try await database.read({ conn in try ServerAlias.server(for: address, SQLRunner(conn)) }) else { return }
        serverID = known
    }

    /// Keeps the file's progress under `server`, the name a reply gave its server.
    ///
    /// - The first reply that names the server behind an address moves the progress kept under the
    ///   address to that name, or, when the file already knows that server (reached before through
    ///   another address), takes up that progress and forgets what the address had.
    /// - A reply naming another server than the one the address reached before means another store
    ///   now answers there: its progress starts anew (a bootstrap), the old server's stays (for the day
    ///   it comes back), and ``newServer`` says so.
    ///
    /// Then the reply's history of the server's log is compared with the one the file's positions
    /// were taken in (``followHistory(_:)``).
    func adopt(_ server: SyncServerID?) async throws {
        guard let server else { return }
        if server.key != serverID { try await takeUp(server) }
        try await followHistory(server.history)
    }

    private func takeUp(_ server: SyncServerID) async throws {
        let address = transport.serverIdentifier
        let previous = serverID
        let anotherStore = previous != address
        try await database.write { conn in
            let sql = SQLRunner(conn)
            if !anotherStore {
                if try ServerState.exists(server: server.key, sql) {
                    try ServerState.forget(server: address, sql)
                } else {
                    try ServerState.rekey(from: address, to: server.key, sql)
                }
            }
            try ServerAlias.record(address: address, server: server.key, sql)
        }
        serverID = server.key
        if anotherStore { newServer = server }
        await pendingTally.invalidate()
    }
}

extension SyncSession {
    /// Keeps the file's positions in the server's log only while they belong to the history the reply
    /// names (``SyncServerID/history``).
    ///
    /// A store restored from a backup (or a dump) is the same server with another history: the
    /// positions past the backup hold other changes than those the file pulled there. A device that
    /// only pulled since finds nothing wrong otherwise: the restored log may have grown past its
    /// cursor, and pulling on from it would skip what the restored server logged below it. So the
    /// file forgets its positions and bootstraps again, merging (``forgetPositionsInLostHistory()``),
    /// and shakes hands again: a push from its acknowledged base finds the server behind what it
    /// acknowledged, when it is, and sends again what the server lost
    /// (``resendToRestoredServer(watermark:digest:state:)``). ``historyChanges`` moves, so that a step
    /// whose request went out before drops what the reply says of positions.
    ///
    /// The first history a file hears of is only recorded (its positions were taken from a server that
    /// named none, or are none yet); a reply that names none (a server that predates histories)
    /// changes nothing.
    func followHistory(_ history: String?) async throws {
        guard let history else { return }
        let server = serverID
        if let recorded = recordedHistory, recorded.server == server, recorded.history == history { return }
        let changed = try await database.write { conn -> Bool in
            let sql = SQLRunner(conn)
            let state = try ServerState.read(server: server, sql)
            guard state.history != history else { return false }
            let changed = state.history != nil
            if changed { try ServerState.forgetPositionsInLostHistory(server: server, sql) }
            try ServerState.recordHistory(history, server: server, sql)
            return changed
        }
        recordedHistory = (server, history)
        guard changed else { return }
        historyChanges += 1
        handshaken = false
        await pendingTally.invalidate()
    }
}
