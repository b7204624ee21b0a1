import Foundation
import Testing

@testable import BoutiqueSQLite

/// Scalar functions reading their arguments as a row, and aggregate functions: values as SQLite passes
/// them, errors that fail the statement, and every per-group state given back.
@Suite("Connection: functions over an argument row, and aggregates")
struct FunctionTests {
    @Test func anArgumentRowKeepsEveryStorageClass() throws {
        let connection = try Connection.inMemory()
        try connection.createFunction("classes", argumentCount: -1, argumentRow: { row in
            .text((0..<row.columnCount).map { "\(row.columnType(at: $0))" }.joined(separator: ","))
        })
        let classes = try connection.fetchValue("SELECT classes(1, 2.5, 'a', x'00', NULL)")
        #expect(classes == .text("INTEGER,REAL,TEXT,BLOB,NULL"))
        let copied = try connection.fetchValue("SELECT classes()")
        #expect(copied == .text("NULL"))  // the one placeholder column of a call without arguments
    }

    @Test func anArgumentRowReadsTheValues() throws {
        let connection = try Connection.inMemory()
        try connection.createFunction("describe", argumentCount: 3, argumentRow: { row in
            .text("\(row.int64(at: 0)) \(try row.string(at: 1)) \(row.blob(at: 2))")
        })
        #expect(try connection.fetchValue("SELECT describe(?, ?, ?)", [.integer(7), .text("é"), .blob([1, 2])])
            == .text("7 é [1, 2]"))
    }

    /// A function whose body runs a statement calling another function of the same argument count
    /// (which a function must not do, but which SQLite allows) still reads its own arguments.
    @Test func aNestedCallReadsItsOwnRow() throws {
        let connection = try Connection.inMemory()
        try connection.createFunction("wrapped", argumentCount: 1, argumentRow: { row in .integer(row.int64(at: 0) * 10) })
        try connection.createFunction("wrapping", argumentCount: 1, argumentRow: { row in
            let nested = try connection.fetchInt("SELECT wrapped(?)", [.integer(row.int64(at: 0) + 1)]) ?? 0
            return .integer(row.int64(at: 0) + nested)
        })
        #expect(try connection.fetchInt("SELECT wrapping(2)") == 32)
    }

    @Test func anErrorFailsTheStatementWithItsMessage() throws {
        let connection = try Connection.inMemory()
        try connection.createFunction("refuse", argumentCount: 0, argumentRow: { _ in throw SQLFunctionError("refused") })
        let error = #expect(throws: SQLiteError.self) { try connection.fetchValue("SELECT refuse()") }
        #expect(error?.message.contains("refused") == true)
    }

    @Test func anAggregateKeepsOneStatePerGroup() throws {
        let connection = try Connection.inMemory()
        try connection.execute("CREATE TABLE t(g, x); INSERT INTO t VALUES (1, 'a'), (2, 'bb'), (1, 'ccc'), (2, NULL)")
        try connection.createAggregateFunction("lengths", argumentCount: 1) { Lengths() }
        let rows = try connection.fetchRows("SELECT g, lengths(x) FROM t GROUP BY g ORDER BY g").rows
        #expect(rows == [[.integer(1), .text("1+3")], [.integer(2), .text("2+null")]])
    }

    @Test func anEmptyGroupIsFinishedWithoutAStep() throws {
        let connection = try Connection.inMemory()
        try connection.execute("CREATE TABLE t(x)")
        try connection.createAggregateFunction("lengths", argumentCount: 1) { Lengths() }
        #expect(try connection.fetchValue("SELECT lengths(x) FROM t") == .text(""))
    }

    @Test func anErrorInAStepOrTheFinishFailsTheStatement() throws {
        let connection = try Connection.inMemory()
        try connection.execute("CREATE TABLE t(x); INSERT INTO t VALUES (1), (2)")
        try connection.createAggregateFunction("failing", argumentCount: 1) { Failing(failsAt: 2) }
        let stepError = #expect(throws: SQLiteError.self) { try connection.fetchValue("SELECT failing(x) FROM t") }
        #expect(stepError?.message.contains("failing: row 2 refused") == true)
        try connection.createAggregateFunction("failing", argumentCount: 1) { Failing(failsAt: nil) }
        let finishError = #expect(throws: SQLiteError.self) { try connection.fetchValue("SELECT failing(x) FROM t") }
        #expect(finishError?.message.contains("no result") == true)
    }

    /// The state of every group is given back: after the group's result, when the statement stops
    /// before its last group, and when it fails in the middle of a group.
    @Test func everyGroupsStateIsReleased() throws {
        let connection = try Connection.inMemory()
        try connection.execute("CREATE TABLE t(g, x); INSERT INTO t VALUES (1, 1), (2, 2), (3, 3), (3, 4)")
        let live = Counter()
        try connection.createAggregateFunction("tracked", argumentCount: 1) { Tracked(token: Token(live)) }
        try connection.createFunction("boom", argumentCount: 1, argumentRow: { row in
            if row.int64(at: 0) == 4 { throw SQLFunctionError("boom") }
            return .integer(row.int64(at: 0))
        })
        #expect(try connection.fetchRows("SELECT tracked(x) FROM t GROUP BY g").rows.count == 3)
        let statement = try connection.prepare("SELECT tracked(x) FROM t GROUP BY g")
        #expect(try statement.step())
        statement.finalize()
        #expect(throws: SQLiteError.self) { try connection.fetchValue("SELECT tracked(boom(x)) FROM t") }
        #expect(try connection.fetchValue("SELECT g, tracked(boom(x)) FROM t GROUP BY g") == .integer(1))
        #expect(throws: SQLiteError.self) { try connection.fetchRows("SELECT g, tracked(boom(x)) FROM t GROUP BY g") }
        #expect(live.value == 0)
        #expect(live.made > 0)
    }

    @Test func anArgumentCountOutOfRangeIsRefused() throws {
        let connection = try Connection.inMemory()
        #expect(throws: SQLiteError.self) {
            try connection.createAggregateFunction("many", argumentCount: 128) { Lengths() }
        }
        #expect(throws: SQLiteError.self) {
            try connection.createFunction("many", argumentCount: -2, argumentRow: { _ in .null })
        }
    }

    @Test func removingAnAggregate() throws {
        let connection = try Connection.inMemory()
        try connection.createAggregateFunction("lengths", argumentCount: 1) { Lengths() }
        try connection.removeFunction("lengths", argumentCount: 1)
        #expect(throws: SQLiteError.self) { try connection.fetchValue("SELECT lengths(1)") }
    }
}

/// The lengths of a group's texts, joined by `+` (`null` for a NULL).
private struct Lengths: SQLAggregation {
    var lengths: [String] = []

    mutating func step(_ arguments: Statement) throws {
        lengths.append(arguments.isNull(at: 0) ? "null" : "\(try arguments.string(at: 0).count)")
    }

    func finish() throws -> DatabaseValue { .text(lengths.joined(separator: "+")) }
}

/// Fails at the given row, or in the finish when there is none.
private struct Failing: SQLAggregation {
    let failsAt: Int?
    var rows = 0

    mutating func step(_ arguments: Statement) throws {
        rows += 1
        if rows == failsAt { throw SQLFunctionError("failing: row \(rows) refused") }
    }

    func finish() throws -> DatabaseValue { throw SQLFunctionError("failing: no result") }
}

/// Counts the live tokens.
private final class Counter: Sendable {
    private let counts = Lock((live: 0, made: 0))
    var value: Int { counts.withLock { $0.live } }
    var made: Int { counts.withLock { $0.made } }
    func add(_ delta: Int) {
        counts.withLock {
            $0.live += delta
            if delta > 0 { $0.made += delta }
        }
    }
}

/// Alive as long as the aggregation holding it.
private final class Token {
    let counter: Counter
    init(_ counter: Counter) {
        self.counter = counter
        counter.add(1)
    }
    deinit { counter.add(-1) }
}

private struct Tracked: SQLAggregation {
    let token: Token
    mutating func step(_ arguments: Statement) throws {}
    func finish() throws -> DatabaseValue { .null }
}
