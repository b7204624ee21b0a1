/// The secret each replica id of this file goes with (`boutique_sync_replica_secret`): made when the id
/// is taken, sent with every push and pull, so that the server answers that id only to this file.
///
/// ```swift
/// let secret = try ReplicaSecrets.secret(for: replica, sql)   // made on first use
/// ```
///
/// Keyed by replica id: a file that takes a new id (restored from a backup, or a copy) gets a new
/// secret with it, and a file from before secrets gets one the first time it asks. A copy of the file
/// made before that shares the id and the secret until one of them takes a new id, as it shares
/// everything else.
enum ReplicaSecrets {
    /// The secret of `replica`, made and stored when it has none.
    static func secret(for replica: String, _ sql: SQLRunner) throws -> String {
        if let found = try existingSecret(for: replica, sql) { return found }
        let made = newSecret()
        try sql.run("INSERT INTO boutique_sync_replica_secret(replica, secret) VALUES (?, ?)", [.text(replica), .text(made)])
        return made
    }

    /// 32 bytes from the system's cryptographically secure generator, as hex.
    static func newSecret() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for _ in 0..<32 {
            let byte = UInt8.random(in: .min ... .max, using: &generator)
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The secret of `replica` the file holds, `nil` when it holds none (in a read: nothing is made).
    static func existingSecret(for replica: String, _ sql: SQLRunner) throws -> String? {
        try sql.rows("SELECT secret FROM boutique_sync_replica_secret WHERE replica = ?", [.text(replica)]).first?.first?.textValue
    }
}
