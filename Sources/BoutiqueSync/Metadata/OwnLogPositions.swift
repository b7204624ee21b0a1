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

    init(server: String, sql: SQLRunner) {
        self.server = server
        self.sql = sql
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
    /// `nil` when that cannot be told (a writer that did not say).
    func knew(_ stamp: SyncStamp, seen: Int64?) throws -> Bool? {
        guard let seen else { return nil }
        guard let sequence = try sequence(of: stamp) else { return false }
        return seen >= sequence
    }
}
