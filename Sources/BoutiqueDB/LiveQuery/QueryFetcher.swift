import BoutiqueSQLite

/// Runs one observed query and tells whether its result changed since the last run.
///
/// ```swift
/// let fetcher = QueryFetcher({ Note.all.order { $0.updatedAt.desc() } }, limit: nil)
/// let outcome = try fetcher.fetch(on: reader, at: .reader(computingRegion: true))   // rows, or nil when unchanged
/// ```
///
/// Results are compared as the database values of their rows, before decoding, so models need not be
/// `Equatable` and equality is exact: a row whose values did not move is not decoded again (its
/// previous Swift value is reused) and a result whose rows did not move is not delivered.
///
/// Query values are not `Sendable` (their decoding closures are not), and the caller is often on the
/// main actor, where a closure passed to the builder belongs to the main actor. So the fetcher keeps a
/// `Sendable` function that builds the query, calls it once on the reader, and keeps the query behind a
/// lock; fetches run on whichever reader is free, one at a time.
///
/// `@unchecked Sendable`, because the compiler cannot follow the lock: the query, the previous raw rows
/// and the previous rows are touched only inside `lock.withLock` in ``fetch(on:at:)``, so
/// never by two threads at once. The query is built there, so no one else ever holds it, and what
/// leaves the lock (rows, region) is `Sendable`.
final class QueryFetcher<Query: QueryStatement>: @unchecked Sendable where Query.Row: Sendable {
    struct Outcome: Sendable {
        /// The rows, or `nil` when they equal the previous fetch's.
        var rows: [Query.Row]?
        /// The tables the query reads, when asked for.
        var region: ReadRegion?
    }

    private struct State {
        var query: Query?
        /// The query's SQL and bindings, rendered once: the query never changes.
        var fragment: QueryFragment?
        /// Whether ``fragment`` is a query by its first word (see ``isQuery(_:)``), once asked.
        var isQuery: Bool?
        var raw: [[DatabaseValue]] = []
        var rows: [Query.Row] = []
        var hasFetched = false
    }

    private let lock = Lock(())
    private let makeQuery: @Sendable () -> Query
    private var state = State()
    /// The most rows read (1 for a query observed for its first row).
    private let limit: Int?

    init(_ makeQuery: @escaping @Sendable () -> Query, limit: Int?) {
        self.makeQuery = makeQuery
        self.limit = limit
    }

    /// Runs the query on `connection` (inside a read transaction).
    func fetch(on connection: Connection, at site: FetchSite) throws -> Outcome {
        try lock.withLock { _ throws -> Outcome in
            let query = state.query ?? makeQuery()
            state.query = query
            let fragment = state.fragment ?? query.query
            state.fragment = fragment
            // On the writer, a statement that is no query is refused before it is prepared: some (a
            // PRAGMA setting a flag) take effect while they are.
            if site == .writer {
                let isQuery = state.isQuery ?? Self.isQuery(fragment.sql)
                state.isQuery = isQuery
                if !isQuery { throw Self.notARead(fragment.sql) }
            }
            let region = site.computesRegion ? try ReadRegion.of(fragment.sql, on: connection) : nil
            let statement = try Execution.prepare(fragment, on: connection)
            defer { Execution.finish(statement) }
            // A reader refuses writes by itself; the writer connection, which refreshes quick queries
            // after a commit, would not (`WITH … INSERT` is a query by its first word).
            guard statement.isReadOnly else { throw Self.notARead(fragment.sql) }
            var raw: [[DatabaseValue]] = []
            var rows: [Query.Row] = []
            var decoder = RowDecoder(statement: statement, source: query.rowSource)
            var changed = !state.hasFetched
            while limit.map({ raw.count < $0 }) ?? true, try Execution.step(statement) {
                let values = try statement.row()
                let index = raw.count
                if index < state.raw.count, state.raw[index] == values {
                    rows.append(state.rows[index])
                } else {
                    changed = true
                    decoder.columnIndex = 0
                    rows.append(try query.decodeRow(&decoder))
                }
                raw.append(values)
            }
            if raw.count != state.raw.count { changed = true }
            state.hasFetched = true
            guard changed else { return Outcome(rows: nil, region: region) }
            state.raw = raw
            state.rows = rows
            return Outcome(rows: rows, region: region)
        }
    }

    /// The error for a live query that would do more than read: what a reader's `query_only` says.
    private static func notARead(_ sql: String) -> BoutiqueError {
        .sql(code: .readOnly, message: .init("a live query only reads", sql: sql))
    }

    /// Whether `sql` starts, after spaces and comments, with `SELECT`, `WITH` or `VALUES`: a query,
    /// not a transaction, savepoint, `PRAGMA` or `ATTACH`, which SQLite counts as read-only too.
    ///
    /// Read as bytes, the way SQLite's tokenizer reads it: as `Character`s, `"\r\n"` is one character,
    /// so a `--` comment ending with one would seem to go on past it.
    static func isQuery(_ sql: String) -> Bool {
        let bytes = Array(sql.utf8)
        var index = 0
        func isAt(_ text: String, _ position: Int) -> Bool { bytes[position...].starts(with: text.utf8) }
        while index < bytes.count {
            if bytes[index] == 0x20 || (0x09...0x0D).contains(bytes[index]) {
                index += 1
            } else if isAt("--", index) {
                index = bytes[index...].firstIndex(of: 0x0A) ?? bytes.count  // to the end of the line
            } else if isAt("/*", index) {
                guard let end = (index + 2..<bytes.count).first(where: { isAt("*/", $0) }) else { return false }
                index = end + 2
            } else {
                break
            }
        }
        // ASCII letters, upper-cased by clearing bit 5.
        let word = bytes[index...].prefix { (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }.map { $0 & 0xDF }
        return word.elementsEqual("SELECT".utf8) || word.elementsEqual("WITH".utf8) || word.elementsEqual("VALUES".utf8)
    }
}
