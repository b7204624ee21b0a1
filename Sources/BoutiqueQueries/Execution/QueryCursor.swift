import BoutiqueSQLite

/// The rows of a running statement, read one at a time: for results too large to hold in memory.
///
/// ```swift
/// try await db.read { conn in
///     let cursor = try Reminder.all.order { $0.id }.fetchCursor(conn)
///     while let reminder = try cursor.next() {
///         if reminder.isDone { continue }
///         exporter.write(reminder)
///     }
/// }
/// ```
///
/// A cursor belongs to the connection it reads from and is valid inside the `read` or `write` closure
/// that made it (it is not `Sendable`). Its statement is its own, so other statements may run on the
/// connection while it is part-way through. It stops with ``BoutiqueError/cancelled`` when its task
/// is cancelled, and releases its statement when it reaches the end or goes away.
public final class QueryCursor<Row> {
    private var statement: BoutiqueSQLite.Statement?
    private var decoder: RowDecoder
    private let decodeRow: (inout RowDecoder) throws(BoutiqueError) -> Row

    init<Query: QueryStatement>(_ query: Query, on connection: Connection) throws(BoutiqueError) where Query.Row == Row {
        let fragment = query.query
        let statement: BoutiqueSQLite.Statement
        do {
            statement = try connection.prepare(fragment.sql)
        } catch {
            throw BoutiqueError(error)
        }
        do {
            for (offset, value) in fragment.bindings.enumerated() {
                try statement.bind(value, at: Int32(offset + 1))
            }
        } catch {
            statement.finalize()
            throw BoutiqueError(error)
        }
        self.statement = statement
        self.decoder = RowDecoder(statement: statement, source: query.rowSource)
        self.decodeRow = { (decoder) throws(BoutiqueError) in try query.decodeRow(&decoder) }
    }

    deinit { statement?.finalize() }

    /// The next row, or `nil` after the last one.
    public func next() throws -> Row? {
        guard let statement else { return nil }
        do {
            guard try Self.step(statement) else {
                close()
                return nil
            }
            decoder.columnIndex = 0
            return try decodeRow(&decoder)
        } catch {
            close()
            throw error
        }
    }

    /// Calls `body` with each remaining row.
    public func forEach(_ body: (Row) throws -> Void) throws {
        while let row = try next() { try body(row) }
    }

    /// Releases the statement; `next()` returns `nil` from now on.
    public func close() {
        statement?.finalize()
        statement = nil
    }

    /// Steps once, unless the task was cancelled: a cancelled read interrupts its statement, and the
    /// interruption is reported as what it is, a cancellation.
    private static func step(_ statement: BoutiqueSQLite.Statement) throws(BoutiqueError) -> Bool {
        if Task.isCancelled { throw .cancelled }
        do {
            return try Execution.step(statement)
        } catch {
            if Task.isCancelled { throw .cancelled }
            throw error
        }
    }
}
