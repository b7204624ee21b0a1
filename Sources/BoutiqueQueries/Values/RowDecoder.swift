import BoutiqueSQLite
import CSQLite

/// Reads the columns of the current row of a statement, left to right.
///
/// Generated `init(decoder:)` methods call ``decode(_:)`` once per column, in order; representations
/// read the value at ``columnIndex`` and move on.
public struct RowDecoder {
    /// The statement positioned on a row.
    public let statement: BoutiqueSQLite.Statement
    /// The column read next (0-based).
    public var columnIndex: Int32
    /// The table or query the row comes from, named in decoding errors.
    public let source: String

    /// A decoder of `statement`'s current row from column `columnIndex` on; `source` names the table or
    /// query in errors.
    @inlinable
    public init(statement: BoutiqueSQLite.Statement, columnIndex: Int32 = 0, source: String) {
        self.statement = statement
        self.columnIndex = columnIndex
        self.source = source
    }

    /// Decodes the next column with `representation`.
    @inlinable
    public mutating func decode<R: QueryRepresentable>(_ representation: R.Type) throws(BoutiqueError) -> R.QueryOutput {
        try R.decode(from: &self)
    }

    /// The storage class of the current column.
    @inlinable
    public var currentStorageClass: StorageClass { statement.columnType(at: columnIndex) }

    /// The decoding error for the current column, naming the source, the column and `expected`.
    public func failure(expected: String, found: String? = nil) -> BoutiqueError {
        let column = statement.columnName(at: columnIndex)
        let found = found ?? describeCurrentValue()
        return .decoding(.init(table: source, column: column, expectedType: expected, found: found))
    }

    /// A short description of the current value for error messages: `NULL`, `TEXT 'abc'`, `INTEGER 3`.
    public func describeCurrentValue() -> String {
        let storage = currentStorageClass
        switch storage {
        case .null: return "NULL"
        case .integer: return "INTEGER \(statement.int64(at: columnIndex))"
        case .real: return "REAL \(statement.double(at: columnIndex))"
        case .text:
            let bytes = statement.textBytes(at: columnIndex)
            let text = String(decoding: bytes.prefix(40), as: UTF8.self)
            return "TEXT '\(text)\(bytes.count > 40 ? "…" : "")'"
        case .blob: return "BLOB of \(statement.withUnsafeBlob(at: columnIndex) { $0.count }) bytes"
        }
    }

    /// Skips `count` columns (for a table of a join that is not decoded).
    @inlinable
    public mutating func skip(_ count: Int32) { columnIndex += count }

    /// `true` when the next `count` columns are all NULL (a left-joined table with no match).
    @inlinable
    public func nextColumnsAreNull(_ count: Int) -> Bool {
        for offset in 0..<Int32(count) where !statement.isNull(at: columnIndex + offset) { return false }
        return true
    }
}
