
/// SQL text that depends only on a table's type, built once and kept: its column list, and its inserts
/// by conflict clause and number of rows.
///
/// ```swift
/// let sql = SQLTextCache.shared.text(for: .columnList(ObjectIdentifier(Note.TableColumns.self))) { build() }
/// ```
///
/// Building these texts (quoting every column name, joining the lists) took most of the time of a
/// one-row insert or a one-row query through the query builder; the texts never change for a type.
/// The cache is bounded: inserts keep their text only up to a few rows (see ``Insert``), and the cache
/// starts again when full, which only a program with a great many tables would ever reach.
final class SQLTextCache: Sendable {
    enum Key: Hashable {
        /// `"t"."a", "t"."b"`: every column of the table, qualified.
        case columnList(ObjectIdentifier)
        /// `json_object('a', "t"."a", …)`: the row as a JSON object.
        case jsonObject(ObjectIdentifier)
        /// `INSERT … INTO "t" ("a", "b") VALUES (?, ?), …` with `rowCount` rows.
        case insert(ObjectIdentifier, conflict: InsertConflict, rowCount: Int)
    }

    static let shared = SQLTextCache()
    private static let capacity = 1024

    private let texts = Lock<[Key: String]>([:])

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
