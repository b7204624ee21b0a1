/// The reader connections of a database: up to ``DatabaseOptions/readerCount`` of them, each lent to one
/// read at a time.
///
/// ```swift
/// let reader = try await pool.acquire()
/// let rows = try await reader.read({ conn in try conn.fetchAll("SELECT * FROM note") }, thenReturnTo: pool)
/// ```
///
/// A read that finds every reader busy waits in line (first come, first served) until one is released;
/// cancelling its task takes it out of the line. The pool never touches the writer, so reads do not wait
/// for writes.
final class ReaderPool: Sendable {
    private let pool: LeasePool<ReaderConnection>

    init(location: DatabaseLocation, options: DatabaseOptions) {
        pool = LeasePool(capacity: options.readerCount) { ReaderConnection(location: location, options: options) }
    }

    /// `true` while some read holds a reader (read without taking the pool's lock).
    var hasReadsInProgress: Bool { pool.hasLentResources }

    /// A reader for the caller's exclusive use until ``release(_:)``.
    ///
    /// - Throws: ``BoutiqueError/databaseClosed`` after ``close()``, ``BoutiqueError/cancelled`` when the
    ///   task is cancelled while waiting.
    nonisolated(nonsending) func acquire() async throws(BoutiqueError) -> ReaderConnection {
        try await pool.acquire()
    }

    /// A reader at once, if one is free and no read waits in line; `nil` otherwise (and after ``close()``).
    func tryAcquire() -> ReaderConnection? { pool.tryAcquire() }

    /// Gives a reader back: to the first read in line, else to the idle readers.
    func release(_ reader: ReaderConnection) { pool.release(reader) }

    /// Frees the page cache of every idle reader (readers in use keep theirs).
    func releaseMemory() async {
        for reader in pool.takeIdle() {
            await reader.releaseMemory()
            pool.release(reader)
        }
    }

    /// How many reads wait in line for a reader (for diagnostics and tests).
    var waitingCount: Int { pool.waitingCount }

    /// Refuses new reads, waits for the reads in progress, and closes every reader.
    func close() async {
        await pool.close { reader in await reader.close() }
    }
}
