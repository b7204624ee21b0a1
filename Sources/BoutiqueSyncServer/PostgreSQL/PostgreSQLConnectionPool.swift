/// A store's connections: up to `size` workers, each lent to one transaction at a time.
///
/// ```swift
/// let pool = PostgreSQLConnectionPool(url: url, size: 4)
/// let worker = try await pool.acquire()
/// defer { pool.release(worker) }
/// try await worker.transaction { connection in ... }
/// ```
///
/// A transaction that finds every worker busy waits in line (first come, first served); cancelling
/// its task takes it out of the line. Workers are made on demand, so a pool costs one connection
/// until requests overlap.
final class PostgreSQLConnectionPool: Sendable {
    private let pool: LeasePool<PostgreSQLWorker>

    init(url: String, size: Int) {
        pool = LeasePool(capacity: size) { PostgreSQLWorker(url: url) }
    }

    /// A worker for the caller's use until ``release(_:)``.
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/databaseClosed`` after ``close()``, ``/BoutiqueDB/BoutiqueError/cancelled`` when
    ///   the task is cancelled while waiting.
    func acquire() async throws(BoutiqueError) -> PostgreSQLWorker { try await pool.acquire() }

    /// Gives a worker back: to the first transaction in line, else to the idle ones.
    func release(_ worker: PostgreSQLWorker) { pool.release(worker) }

    /// Refuses new transactions, waits for those in progress, and closes every connection.
    func close() async {
        await pool.close { worker in await worker.close() }
    }
}
