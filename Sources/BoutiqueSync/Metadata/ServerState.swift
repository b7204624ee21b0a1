/// What a device knows of its progress with one server, as `boutique_sync_server` keeps it.
struct ServerState: Sendable, Hashable {
    /// The latest local transaction the server acknowledged, 0 before the first.
    var acknowledged: Int64 = 0
    /// That transaction's digest.
    var digest: UInt64?
    /// The server log position pulled through.
    var cursor: Int64 = 0
    /// Whether the snapshot bootstrap finished.
    var bootstrapped = false
    /// How far a bootstrap under way got; `nil` when none is.
    var bootstrap: BootstrapResumePoint?
    /// The history of the server's log the cursor and the other positions belong to
    /// (``SyncServerID/history``); `nil` until a server that tells it answers. Read here, written only
    /// by ``recordHistory(_:server:_:)``: a step that read the state before a reply told another
    /// history must not put the old one back.
    var history: String?

    static func read(server: String, _ sql: SQLRunner) throws -> ServerState {
        guard let row = try sql.rows(
            "SELECT acknowledged, digest, cursor, bootstrapped, snapshot_progress, history FROM boutique_sync_server WHERE server = ?",
            [.text(server)]).first
        else { return ServerState() }
        return ServerState(
            acknowledged: row[0].integerValue ?? 0, digest: row[1].integerValue.map { UInt64(bitPattern: $0) },
            cursor: row[2].integerValue ?? 0, bootstrapped: row[3] == .integer(1), bootstrap: try BootstrapResumePoint.decoded(row[4]),
            history: row[5].textValue)
    }

    /// The state without its history: what a step compares to tell whether another moved the file's
    /// progress meanwhile. The history recorded at the first reply that names one is not progress
    /// (a push whose reply first named its server must not be dropped for it).
    var progress: ServerState {
        var state = self
        state.history = nil
        return state
    }

    /// Records that the file's positions with `server` belong to `history`. A server the file has no
    /// progress with yet gets a row of none, and nothing else: no pull mark, which the first write of
    /// real progress makes.
    static func recordHistory(_ history: String, server: String, _ sql: SQLRunner) throws {
        try sql.run(
            """
            INSERT INTO boutique_sync_server(server, acknowledged, digest, cursor, bootstrapped, snapshot_progress, history)
            VALUES (?, 0, NULL, 0, 0, NULL, ?)
            ON CONFLICT(server) DO UPDATE SET history = excluded.history
            """,
            [.text(server), .text(history)])
    }

    /// Makes the next pull from `server` a bootstrap (the device's copy of some rows is not the
    /// server's any more), keeping the rest of the progress.
    static func requireBootstrap(server: String, _ sql: SQLRunner) throws {
        try sql.run("UPDATE boutique_sync_server SET bootstrapped = 0 WHERE server = ?", [.text(server)])
    }

    /// Whether progress with `server` is recorded.
    static func exists(server: String, _ sql: SQLRunner) throws -> Bool {
        try sql.value("SELECT 1 FROM boutique_sync_server WHERE server = ?", [.text(server)]) != nil
    }

    /// The tables that keep a file's progress with a server, by the server's key: the progress itself
    /// and a bootstrap's notes under way.
    private static let keyedTables = [
        "boutique_sync_server", "boutique_sync_snapshot_seen", "boutique_sync_snapshot_waiting", "boutique_sync_pull_mark",
        "boutique_sync_logged",
    ]

    /// Moves what the file keeps of its progress with a server from the key `old` to `new`.
    static func rekey(from old: String, to new: String, _ sql: SQLRunner) throws {
        for table in keyedTables {
            try sql.run("UPDATE \(table) SET server = ? WHERE server = ?", [.text(new), .text(old)])
        }
    }

    /// Forgets what the file keeps of its progress under the key `server`.
    static func forget(server: String, _ sql: SQLRunner) throws {
        for table in keyedTables {
            try sql.run("DELETE FROM \(table) WHERE server = ?", [.text(server)])
        }
    }

    /// Forgets the positions in `server`'s log the file kept beside its progress (a bootstrap's notes,
    /// its pull marks, where its own writes went): they belong to a history the server no longer has
    /// (it was restored from a backup), whose positions it gives to other changes now.
    static func forgetLogPositions(server: String, _ sql: SQLRunner) throws {
        for table in keyedTables where table != "boutique_sync_server" {
            try sql.run("DELETE FROM \(table) WHERE server = ?", [.text(server)])
        }
    }

    /// Forgets the file's positions in `server`'s log, its cursor included, and makes the next pull a
    /// bootstrap (one that merges: nothing is dropped), keeping what the server acknowledged: the
    /// server lost the history they belong to (``SyncSession/forgetPositionsInLostHistory()``).
    static func forgetPositionsInLostHistory(server: String, _ sql: SQLRunner) throws {
        try forgetLogPositions(server: server, sql)
        var state = try read(server: server, sql)
        state.cursor = 0
        state.bootstrapped = false
        state.bootstrap = nil
        try state.write(server: server, sql)
    }

    func write(server: String, _ sql: SQLRunner) throws {
        try sql.run(
            """
            INSERT INTO boutique_sync_server(server, acknowledged, digest, cursor, bootstrapped, snapshot_progress)
            VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT(server) DO UPDATE SET acknowledged = excluded.acknowledged, digest = excluded.digest,
                cursor = excluded.cursor, bootstrapped = excluded.bootstrapped, snapshot_progress = excluded.snapshot_progress
            """,
            [.text(server), .integer(acknowledged), digest.map { .integer(Int64(bitPattern: $0)) } ?? .null, .integer(cursor),
             .integer(bootstrapped ? 1 : 0), try bootstrap.map { .text(try $0.encoded()) } ?? .null])
        try PullMarks.note(server: server, cursor: cursor, acknowledged: acknowledged, sql)
    }
}
