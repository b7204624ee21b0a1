import CSQLite
import Foundation
import Testing

@testable import BoutiqueSQLite

/// Runs `body` with a fresh directory under the system's temporary directory, removed afterwards.
func withScratchDirectory<T>(_ body: (URL) throws -> T) throws -> T {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("BoutiqueSQLiteTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try body(directory)
}

/// Runs `body` with the path of a database file (not yet created) in a fresh temporary directory.
func withScratchDatabasePath<T>(_ body: (String) throws -> T) throws -> T {
    try withScratchDirectory { directory in
        try body(directory.appendingPathComponent("test.db").path)
    }
}

extension Connection {
    /// The single integer a query returns, or `nil` for no row or a NULL.
    func fetchInt(_ sql: String, _ arguments: [DatabaseValue] = []) throws -> Int64? {
        guard case .integer(let value)? = try fetchValue(sql, arguments) else { return nil }
        return value
    }

    /// A private in-memory database with a table `t(id INTEGER PRIMARY KEY, value)`.
    static func inMemoryWithTable() throws -> Connection {
        let connection = try Connection.inMemory()
        try connection.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, value)")
        return connection
    }
}

/// A value that several threads read and write.
final class LockedBox<Value: Sendable>: Sendable {
    private let storage: Lock<Value>
    init(_ value: Value) { storage = Lock(value) }
    var value: Value { storage.withLock { $0 } }
    func update(_ body: (inout Value) -> Void) { storage.withLock { body(&$0) } }
}

/// What a hook saw, in order.
final class CallLog<Element> {
    var items: [Element] = []
    func append(_ item: Element) { items.append(item) }
}

/// Thrown by test bodies to make a transaction or savepoint roll back.
struct RollbackRequest: Error, Equatable {}

/// Statements SQLite still holds for the connection `db` (`sqlite3_next_stmt`).
func unfinalizedStatementCount(_ db: OpaquePointer) -> Int {
    var count = 0
    var statement = sqlite3_next_stmt(db, nil)
    while let current = statement {
        count += 1
        statement = sqlite3_next_stmt(db, current)
    }
    return count
}
