/// The checks of ``SyncServerLimits`` on what a request names (replica ids, tables, columns, keys,
/// positions), shared by pushes, pulls and snapshots. Each problem is a sentence that names the limit
/// and quotes at most the start of what was too long.
enum RequestLimits {
    /// The bytes a value takes as the store keeps it: a text's UTF-8, a blob's bytes, 8 for a number.
    static func bytes(of value: DatabaseValue) -> Int {
        switch value {
        case .text(let text): text.utf8.count
        case .blob(let bytes): bytes.count
        case .null: 0
        default: 8
        }
    }

    static func replicaProblem(_ replica: String, limits: SyncServerLimits) -> String? {
        guard replica.utf8.count > limits.maximumReplicaIDBytes else { return nil }
        return "a replica id of \(replica.utf8.count) bytes ('\(replica.prefix(40))…') is longer than the server's limit of \(limits.maximumReplicaIDBytes) bytes"
    }

    /// A stamp's writer id's problem: longer than a replica id may be (a device's is its replica id).
    static func writerProblem(_ writer: String, limits: SyncServerLimits) -> String? {
        guard writer.utf8.count > limits.maximumReplicaIDBytes else { return nil }
        return "a writer id of \(writer.utf8.count) bytes ('\(writer.prefix(40))…') is longer than the server's limit of \(limits.maximumReplicaIDBytes) bytes"
    }

    /// A replica secret's problem: longer than any device makes (64 hex digits).
    static func secretProblem(_ secret: String?) -> String? {
        guard let secret, secret.utf8.count > 128 else { return nil }
        return "a replica secret of \(secret.utf8.count) bytes is longer than the server's limit of 128 bytes"
    }

    static func nameProblem(_ name: String, of kind: String, limits: SyncServerLimits) -> String? {
        guard name.utf8.count > limits.maximumNameBytes else { return nil }
        return "\(kind) name of \(name.utf8.count) bytes ('\(name.prefix(40))…') is longer than the server's limit of \(limits.maximumNameBytes) bytes"
    }

    static func keyProblem(_ key: DatabaseValue, limits: SyncServerLimits) -> String? {
        guard bytes(of: key) > limits.maximumKeyBytes else { return nil }
        return "a key of \(bytes(of: key)) bytes is longer than the server's limit of \(limits.maximumKeyBytes) bytes"
    }

    /// A snapshot position's problem: its table name or key too long.
    static func positionProblem(_ position: SnapshotPosition?, limits: SyncServerLimits) -> String? {
        guard let position else { return nil }
        return nameProblem(position.table, of: "a table", limits: limits) ?? keyProblem(position.key, limits: limits)
    }

    /// A space's problem: its name (which holds a root's table and key) longer than a table name and a
    /// key together may be.
    static func spaceProblem(_ space: SyncSpace, limits: SyncServerLimits) -> String? {
        let most = limits.maximumNameBytes + limits.maximumKeyBytes * 2 + 16
        guard space.rawValue.utf8.count > most else { return nil }
        return "a space name of \(space.rawValue.utf8.count) bytes is longer than the server's limit of \(most) bytes"
    }
}
