/// Where a live query's fetch runs, and what it does there.
///
/// ```swift
/// try fetcher.fetch(on: connection, at: .reader(computingRegion: true))   // the first fetch
/// try fetcher.fetch(on: writer, at: .writer)                               // a quick refresh
/// ```
enum FetchSite: Sendable, Equatable {
    /// On a reader connection (`query_only`, in a read transaction); `computingRegion` asks for the
    /// tables the query reads as well.
    case reader(computingRegion: Bool)
    /// On the writer connection, lent right after a commit (see ``CommitRefresh``). Nothing there
    /// refuses a statement that writes or changes the connection, so the fetch must only run a query.
    case writer

    var computesRegion: Bool {
        if case .reader(let computingRegion) = self { computingRegion } else { false }
    }
}
