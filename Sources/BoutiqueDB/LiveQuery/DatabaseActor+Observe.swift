extension DatabaseActor {
    /// The results of `query`, each time they change. See ``LiveQueryResults``.
    ///
    /// ```swift
    /// for try await titles in database.observe(Note.all.select { $0.title }) { print(titles) }
    /// ```
    public nonisolated func observe<Query: QueryStatement>(_ query: @autoclosure @escaping @Sendable () -> Query) -> LiveQueryResults<[Query.Row]>
    where Query.Row: Sendable {
        results {
            let fetcher = QueryFetcher(query, limit: nil)
            return { connection, site in
                let outcome = try fetcher.fetch(on: connection, at: site)
                return (outcome.rows, outcome.region)
            }
        }
    }

    /// The first row of `query` (or `nil`), each time it changes.
    ///
    /// ```swift
    /// for try await note in database.observeOne(Note.where { $0.id == id }) { show(note) }
    /// ```
    public nonisolated func observeOne<Query: QueryStatement>(_ query: @autoclosure @escaping @Sendable () -> Query) -> LiveQueryResults<Query.Row?>
    where Query.Row: Sendable {
        results {
            let fetcher = QueryFetcher(query, limit: 1)
            return { connection, site in
                let outcome = try fetcher.fetch(on: connection, at: site)
                return (outcome.rows.map { $0.first }, outcome.region)
            }
        }
    }

    /// Each iteration observes on its own, with a fetch of its own from `makeFetch`: a fetcher remembers
    /// the last result it saw, and one shared by two iterations would withhold from the second what the
    /// first had already seen.
    private nonisolated func results<Value: Sendable>(
        _ makeFetch: @escaping @Sendable () -> QueryObservation<Value>.Fetch
    ) -> LiveQueryResults<Value> {
        LiveQueryResults { [self] in
            let (stream, continuation) = AsyncThrowingStream<Value, any Error>.makeStream(bufferingPolicy: .bufferingNewest(1))
            let observation = QueryObservation(database: self, fetch: makeFetch())
            continuation.onTermination = { _ in observation.cancel() }
            observation.start { result in
                switch result {
                case .success(let value):
                    if case .terminated = continuation.yield(value) { return .receiverGone }
                    return .taken
                case .failure(let error):
                    continuation.finish(throwing: error)
                    return .receiverGone
                }
            }
            return (stream, { observation.fetchCount })
        }
    }
}
