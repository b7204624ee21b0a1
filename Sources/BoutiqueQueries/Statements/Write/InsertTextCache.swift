import Synchronization

/// The SQL texts of inserts made so far, by table type, conflict clause and number of rows.
///
/// ```swift
/// let sql = InsertTextCache.shared.text(for: key) { buildTheText() }
/// ```
///
/// An insert's text depends only on those three, but building it (quoting every column name, joining
/// the lists) took more than half the time of inserting one row through the query builder. The cache
/// is bounded: it starts again when full, which only a program inserting a great many different row
/// counts or tables would ever reach.
final class InsertTextCache: Sendable {
    struct Key: Hashable {
        let table: ObjectIdentifier
        let conflict: ConflictKey
        let rowCount: Int
    }

    /// ``Insert/ConflictResolution`` as a key.
    enum ConflictKey: Hashable {
        case abort, ignore, replace
        case update(target: [String], columns: [String])
    }

    static let shared = InsertTextCache()
    private static let capacity = 512

    private let texts = Mutex<[Key: String]>([:])

    /// The cached text for `key`, or the one `make` builds, which is kept.
    func text(for key: Key, orMake make: () -> String) -> String {
        if let known = texts.withLock({ $0[key] }) { return known }
        let text = make()
        texts.withLock { texts in
            if texts.count >= Self.capacity { texts.removeAll(keepingCapacity: true) }
            texts[key] = text
        }
        return text
    }
}
