import BoutiqueSQLite

/// A piece of SQL with the values bound to its `?` placeholders, in order.
///
/// Fragments are how every statement is built: text and bindings travel together, so a value can
/// never end up spliced into the SQL.
public struct QueryFragment: Hashable, Sendable {
    /// SQL text with one `?` per binding.
    public var sql: String
    /// The values for the placeholders, in order.
    public var bindings: [DatabaseValue]

    /// A fragment of SQL text with `bindings` for its `?` placeholders, in order.
    @inlinable
    public init(_ sql: String = "", bindings: [DatabaseValue] = []) {
        self.sql = sql
        self.bindings = bindings
    }

    /// A single `?` bound to `value`.
    @inlinable
    public init(binding value: DatabaseValue) {
        self.sql = "?"
        self.bindings = [value]
    }

    /// `true` when there is no SQL text.
    public var isEmpty: Bool { sql.isEmpty }

    /// Appends another fragment's SQL and bindings.
    public mutating func append(_ other: QueryFragment) {
        sql += other.sql
        bindings += other.bindings
    }

    /// Appends SQL text that binds nothing.
    public mutating func append(_ text: String) { sql += text }

    /// The two fragments one after the other, SQL and bindings.
    public static func + (lhs: QueryFragment, rhs: QueryFragment) -> QueryFragment {
        var result = lhs
        result.append(rhs)
        return result
    }

    /// The fragment followed by SQL text.
    public static func + (lhs: QueryFragment, rhs: String) -> QueryFragment {
        var result = lhs
        result.sql += rhs
        return result
    }

    /// SQL text followed by the fragment.
    public static func + (lhs: String, rhs: QueryFragment) -> QueryFragment {
        QueryFragment(lhs + rhs.sql, bindings: rhs.bindings)
    }

    /// A quoted identifier: `"note"`.
    public static func identifier(_ name: String) -> QueryFragment {
        QueryFragment(SQLIdentifier.quote(name))
    }
}

extension Sequence where Element == QueryFragment {
    /// The fragments joined by `separator`.
    public func joined(separator: String) -> QueryFragment {
        var result = QueryFragment()
        var first = true
        for fragment in self {
            if !first { result.sql += separator }
            first = false
            result.append(fragment)
        }
        return result
    }
}
