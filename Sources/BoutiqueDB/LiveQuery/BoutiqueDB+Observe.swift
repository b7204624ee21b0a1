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
