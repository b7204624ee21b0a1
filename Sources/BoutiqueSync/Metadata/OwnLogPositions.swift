/// Where this file's own transactions are in a server's log (`boutique_sync_logged`), by stamp.
///
/// A pull leaves a device's own changes out but says where they were (``PullResponse/ownTransactions``).
/// A pulled change whose writer's cursor (``SyncChange/seen``) is at or past one of them was made
/// knowing that write; one before it, or a write not in the log yet, was not: an edit it overwrites
/// was beaten by a concurrent one (``SyncLoss/Kind/editBeatenByConcurrentEdit``).
final class OwnLogPositions {
    private let sql: SQLRunner
    private let server: String
    private var known: [SyncStamp: Int64?] = [:]
    /// Whether the pull page being merged came from a server that tells where this file's own
    /// transactions are, through the page's end: a write whose place is still not known then is after
    /// the page, or nowhere in the log.
    var unplacedAreAfterThePage = false

    init(server: String, sql: SQLRunner) {
        self.server = server
        self.sql = sql
    }

    /// The position of a write the server acknowledged without logging it (it lost everywhere there):
    /// nobody can have pulled it.
    static let notLogged: Int64 = -1

    /// The position of a write the server acknowledged in an answer that did not say where it is (an
    /// earlier answer, lost, applied it): it is in the log or lost there, and which is not known.
    static let unplaced: Int64 = -2

    /// The position of a write acknowledged without its place (``unplaced``) when a snapshot then moved
    /// the cursor past wherever it is without a page saying so: no later page tells it either.
    static let passedByASnapshot: Int64 = -3

    /// Marks the writes still ``unplaced`` as passed by the snapshot that just moved the cursor.
    func notePassedBySnapshot() throws {
        try sql.run(
            "UPDATE boutique_sync_logged SET sequence = ? WHERE server = ? AND sequence = ?",
            [.integer(Self.passedByASnapshot), .text(server), .integer(Self.unplaced)])
        known.removeAll()
    }

    /// Records the local writes of the transactions after `acknowledged` through `through`, which the
    /// server acknowledged, as unplaced where no answer said where they are.
    func recordUnplaced(after acknowledged: Int64, through: Int64) throws {
        try sql.run(
            """
            INSERT OR IGNORE INTO boutique_sync_logged(server, time, writer, sequence)
                SELECT ?, stamp, writer, ? FROM boutique_sync_txn WHERE change_txn_id > ? AND change_txn_id <= ? AND remote = 0
            """,
            [.text(server), .integer(Self.unplaced), .integer(acknowledged), .integer(through)])
        known.removeAll()
    }

    /// Records that the server acknowledged the writes stamped `stamps` without logging them.
    func recordNotLogged(_ stamps: [SyncStamp]) throws {
        for stamp in stamps {
            // A place in the log found before stands (an answer about a write pushed again).
            try sql.run(
                "INSERT OR IGNORE INTO boutique_sync_logged(server, time, writer, sequence) VALUES (?, ?, ?, ?)",
                [.text(server), .integer(Int64(bitPattern: stamp.time.rawValue)), .text(stamp.replica), .integer(Self.notLogged)])
            known[stamp] = nil
        }
    }

    /// Records where the page's own transactions are.
    func record(_ transactions: [LoggedTransaction]) throws {
        for transaction in transactions {
            try sql.run(
                "INSERT OR REPLACE INTO boutique_sync_logged(server, time, writer, sequence) VALUES (?, ?, ?, ?)",
                [.text(server), .integer(Int64(bitPattern: transaction.stamp.time.rawValue)), .text(transaction.stamp.replica),
                 .integer(transaction.sequence)])
            known[transaction.stamp] = .some(transaction.sequence)
        }
    }

    /// The sequence number of the own write stamped `stamp`, `nil` when it is not in the log as far
    /// as this file has pulled.
    func sequence(of stamp: SyncStamp) throws -> Int64? {
        if let answer = known[stamp] { return answer }
        let answer = try sql.value(
            "SELECT sequence FROM boutique_sync_logged WHERE server = ? AND time = ? AND writer = ?",
            [.text(server), .integer(Int64(bitPattern: stamp.time.rawValue)), .text(stamp.replica)])?.integerValue
        known[stamp] = .some(answer)
        return answer
    }

    /// Whether a change made with its writer's cursor at `seen` was made knowing the own write `stamp`:
    /// `nil` when that cannot be told (a writer that did not say, an own write whose place is not known).
    /// An own write with no place recorded was not acknowledged yet: not in the log, nobody had it.
    /// One acknowledged without its place, when the page says where every own write up to its end is
    /// (``unplacedAreAfterThePage``) and no snapshot passed it since, is after every change of the page,
    /// each of which was made with a cursor before its own place: nobody had it either.
    func knew(_ stamp: SyncStamp, seen: Int64?) throws -> Bool? {
        let sequence = try sequence(of: stamp)
        if sequence == Self.notLogged { return false }
        guard let seen, sequence != Self.passedByASnapshot else { return nil }
        if sequence == Self.unplaced { return unplacedAreAfterThePage ? false : nil }
        guard let sequence else { return false }
        return seen >= sequence
    }

    /// Whether a write already on the server (a snapshot's, a row moving in) was made knowing the own
    /// write `stamp`: `false` only when the server never logged that write; otherwise a state says
    /// nothing of what its writers had pulled (`nil`).
    func knewInState(_ stamp: SyncStamp) throws -> Bool? {
        try sequence(of: stamp) == Self.notLogged ? false : nil
    }
}
