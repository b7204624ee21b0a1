import CPostgreSQL

/// The rows a statement returned, in binary format, read with the type each column is expected to
/// have.
///
/// ```swift
/// let result = try connection.execute("SELECT next_sequence FROM boutique_sync_server_tenant WHERE tenant = $1", [.text("acme")])
/// if result.rowCount == 1 { print(try result.int64(0, 0)) }
/// ```
///
/// What the server sends is checked, never trusted: a cell that is NULL, of another length or out of
/// range is a decoding error, not a crash.
final class PostgreSQLResult {
    private let handle: OpaquePointer

    /// Takes ownership of a `PGresult` (cleared with the result).
    init(_ handle: OpaquePointer) { self.handle = handle }

    deinit { PQclear(handle) }

    var rowCount: Int { Int(PQntuples(handle)) }

    var columnCount: Int { Int(PQnfields(handle)) }

    /// The rows an `INSERT`, `UPDATE` or `DELETE` touched (0 for other statements).
    var affectedRows: Int {
        guard let text = PQcmdTuples(handle) else { return 0 }
        return Int(String(cString: text)) ?? 0
    }

    func isNull(_ row: Int, _ column: Int) throws(BoutiqueError) -> Bool {
        try check(row, column)
        return PQgetisnull(handle, Int32(row), Int32(column)) != 0
    }

    /// The cell's bytes; NULL is an error.
    func bytes(_ row: Int, _ column: Int) throws(BoutiqueError) -> [UInt8] {
        guard try !isNull(row, column) else { throw failure(row, column, expected: "a value", found: "NULL") }
        let length = Int(PQgetlength(handle, Int32(row), Int32(column)))
        guard length > 0 else { return [] }
        guard let value = PQgetvalue(handle, Int32(row), Int32(column)) else {
            throw failure(row, column, expected: "a value", found: "no data")
        }
        return value.withMemoryRebound(to: UInt8.self, capacity: length) { Array(UnsafeBufferPointer(start: $0, count: length)) }
    }

    func int64(_ row: Int, _ column: Int) throws(BoutiqueError) -> Int64 {
        let bytes = try bytes(row, column)
        guard bytes.count == 8 else { throw failure(row, column, expected: "a bigint", found: "\(bytes.count) bytes") }
        return bytes.reduce(0) { $0 << 8 | Int64($1) }
    }

    /// The cell as a bigint, `nil` for NULL.
    func optionalInt64(_ row: Int, _ column: Int) throws(BoutiqueError) -> Int64? {
        try isNull(row, column) ? nil : try int64(row, column)
    }

    func int32(_ row: Int, _ column: Int) throws(BoutiqueError) -> Int32 {
        let bytes = try bytes(row, column)
        guard bytes.count == 4 else { throw failure(row, column, expected: "an integer", found: "\(bytes.count) bytes") }
        return bytes.reduce(0) { $0 << 8 | Int32($1) }
    }

    func bool(_ row: Int, _ column: Int) throws(BoutiqueError) -> Bool {
        let bytes = try bytes(row, column)
        guard bytes.count == 1 else { throw failure(row, column, expected: "a boolean", found: "\(bytes.count) bytes") }
        return bytes[0] != 0
    }

    /// A `text` cell, or a `bytea` holding a string's UTF-8 bytes.
    func string(_ row: Int, _ column: Int) throws(BoutiqueError) -> String {
        let bytes = try bytes(row, column)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw failure(row, column, expected: "UTF-8 text", found: "\(bytes.count) bytes that are not UTF-8")
        }
        return text
    }

    private func check(_ row: Int, _ column: Int) throws(BoutiqueError) {
        guard row >= 0, row < rowCount, column >= 0, column < columnCount else {
            throw BoutiqueError.decoding(.init(
                table: "a PostgreSQL result", column: "\(column)", expectedType: "a cell",
                found: "a result of \(rowCount) rows and \(columnCount) columns, asked for row \(row)"))
        }
    }

    private func failure(_ row: Int, _ column: Int, expected: String, found: String) -> BoutiqueError {
        let name = PQfname(handle, Int32(column)).map { String(cString: $0) } ?? "\(column)"
        return .decoding(.init(table: "a PostgreSQL result", column: name, expectedType: expected, found: "\(found) in row \(row)"))
    }
}
