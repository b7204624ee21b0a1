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

    /// Produces the results one at a time: the current one first, then each change.
    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<Element, any Error>.Iterator
        /// How many times the query ran so far.
        let fetchCount: @Sendable () -> Int

        public mutating func next() async throws -> Element? {
            try await base.next()
        }
    }
}
