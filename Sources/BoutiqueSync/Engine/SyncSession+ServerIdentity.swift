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
    func adopt(_ server: SyncServerID?) async throws {
        guard let server, server.key != serverID else { return }
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
