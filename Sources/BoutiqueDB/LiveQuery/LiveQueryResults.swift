/// The results of a query, each time they change: an `AsyncSequence` for code without a UI.
///
/// ```swift
/// for try await notes in db.observe(Note.all.order { $0.updatedAt.desc() }) {
///     print("\(notes.count) notes")
/// }
/// ```
///
/// The first element is the current result; each later one follows a commit (in this process or, for
/// a shared file, another) that changed it. A consumer slower than the commits sees the latest result,
/// not every intermediate one. An error while fetching ends the sequence by throwing it. The
/// observation stops when the iterating task is cancelled or the sequence is dropped.
public struct LiveQueryResults<Element: Sendable>: AsyncSequence, Sendable {
    let start: @Sendable () -> (AsyncThrowingStream<Element, any Error>, @Sendable () -> Int)

    public func makeAsyncIterator() -> Iterator {
        let (stream, fetchCount) = start()
        return Iterator(base: stream.makeAsyncIterator(), fetchCount: fetchCount)
    }

    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<Element, any Error>.Iterator
        /// How many times the query ran so far.
        let fetchCount: @Sendable () -> Int

        public mutating func next() async throws -> Element? {
            try await base.next()
        }
    }
}

extension DatabaseActor {
    /// The results of `query`, each time they change. See ``LiveQueryResults``.
    ///
    /// ```swift
    /// for try await titles in database.observe(Note.all.select { $0.title }) { print(titles) }
    /// ```
    public nonisolated func observe<Query: QueryStatement>(_ query: @autoclosure @escaping @Sendable () -> Query) -> LiveQueryResults<[Query.Row]>
    where Query.Row: Sendable {
        let fetcher = QueryFetcher(query, limit: nil)
        return results { connection, computingRegion in
            let outcome = try fetcher.fetch(on: connection, computingRegion: computingRegion)
            return (outcome.rows, outcome.region)
        }
    }

    /// The first row of `query` (or `nil`), each time it changes.
    ///
    /// ```swift
    /// for try await note in database.observeOne(Note.where { $0.id == id }) { show(note) }
    /// ```
    public nonisolated func observeOne<Query: QueryStatement>(_ query: @autoclosure @escaping @Sendable () -> Query) -> LiveQueryResults<Query.Row?>
    where Query.Row: Sendable {
        let fetcher = QueryFetcher(query, limit: 1)
        return results { connection, computingRegion in
            let outcome = try fetcher.fetch(on: connection, computingRegion: computingRegion)
            return (outcome.rows.map { $0.first }, outcome.region)
        }
    }

    private nonisolated func results<Value: Sendable>(
        _ fetch: @escaping QueryObservation<Value>.Fetch
    ) -> LiveQueryResults<Value> {
        LiveQueryResults { [self] in
            let (stream, continuation) = AsyncThrowingStream<Value, any Error>.makeStream(bufferingPolicy: .bufferingNewest(1))
            let observation = QueryObservation(database: self, fetch: fetch)
            continuation.onTermination = { _ in observation.cancel() }
            observation.start { result in
                switch result {
                case .success(let value):
                    if case .terminated = continuation.yield(value) { return false }
                    return true
                case .failure(let error):
                    continuation.finish(throwing: error)
                    return false
                }
            }
            return (stream, { observation.fetchCount })
        }
    }
}

extension BoutiqueDB {
    /// The results of `query`, each time they change, for code that is not a view. See
    /// ``LiveQueryResults``.
    ///
    /// ```swift
    /// Task {
    ///     for try await notes in db.observe(Note.all.order { $0.updatedAt.desc() }) { badge = notes.count }
    /// }
    /// ```
    public nonisolated func observe<Query: QueryStatement>(_ query: @autoclosure @escaping @Sendable () -> Query) -> LiveQueryResults<[Query.Row]>
    where Query.Row: Sendable {
        databaseActor.observe(query())
    }

    /// The first row of `query` (or `nil`), each time it changes.
    ///
    /// ```swift
    /// for try await note in db.observeOne(Note.where { $0.id == id }) { title = note?.title ?? "" }
    /// ```
    public nonisolated func observeOne<Query: QueryStatement>(_ query: @autoclosure @escaping @Sendable () -> Query) -> LiveQueryResults<Query.Row?>
    where Query.Row: Sendable {
        databaseActor.observeOne(query())
    }
}
