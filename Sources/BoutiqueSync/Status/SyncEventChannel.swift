import BoutiqueSQLite

/// Hands what sync reports (a loss, a refusal) to every sequence the app reads it from, and keeps
/// what arrives while nobody reads until someone does.
///
/// ```swift
/// let channel = SyncEventChannel<SyncRefusal>()
/// channel.send(refusal)                          // nobody listens yet: kept
/// for await refusal in channel.stream() { … }    // gets the kept refusal first, then new ones
/// ```
///
/// An app typically starts reading only after sync has started (a view appears later), and a report
/// it never sees is a silent loss. So events sent with no reader are kept, up to ``keptLimit`` (the
/// oldest go first past that), and the first reader gets them; with readers, each gets every event.
final class SyncEventChannel<Element: Sendable>: Sendable {
    /// How many unread events are kept while nobody reads.
    let keptLimit: Int

    private struct State {
        var readers: [Int: AsyncStream<Element>.Continuation] = [:]
        var nextReader = 0
        var kept: [Element] = []
    }

    private let state = Lock(State())

    init(keptLimit: Int = 1_000) {
        self.keptLimit = keptLimit
    }

    /// Delivers `element` to every reader, or keeps it for the first one.
    func send(_ element: Element) {
        let readers = state.withLock { state -> [AsyncStream<Element>.Continuation] in
            guard state.readers.isEmpty else { return Array(state.readers.values) }
            state.kept.append(element)
            if state.kept.count > keptLimit { state.kept.removeFirst(state.kept.count - keptLimit) }
            return []
        }
        for reader in readers { reader.yield(element) }
    }

    /// A new sequence of events: what was kept while nobody read, then every event sent while it is
    /// read. It ends when the task reading it is cancelled or the channel is finished.
    func stream() -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self, bufferingPolicy: .unbounded)
        let id = state.withLock { state -> Int in
            let id = state.nextReader
            state.nextReader += 1
            for element in state.kept { continuation.yield(element) }
            state.kept.removeAll()
            state.readers[id] = continuation
            return id
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.readers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Ends every sequence (sync is going away).
    func finish() {
        let readers = state.withLock { state -> [AsyncStream<Element>.Continuation] in
            defer { state.readers.removeAll() }
            return Array(state.readers.values)
        }
        for reader in readers { reader.finish() }
    }
}
