/// A SQL expression whose result has the Swift type `QueryValue` stands for.
///
/// Columns, bound values, operators, functions and aggregates are all expressions; they compose into
/// larger ones and are type-checked by the compiler:
///
/// ```swift
/// Note.where { $0.title.lower().hasPrefix("todo") && !$0.isPinned }
/// ```
public protocol QueryExpression<QueryValue> {
    /// The representation of the expression's result.
    associatedtype QueryValue

    /// The expression's SQL and bindings.
    var queryFragment: QueryFragment { get }
}

/// An expression built from SQL text and bindings, typed by the representation of its result.
public struct SQLExpression<QueryValue>: QueryExpression {
    public let queryFragment: QueryFragment

    /// An expression of `fragment`'s SQL and bindings.
    @inlinable
    public init(_ fragment: QueryFragment) { queryFragment = fragment }

    /// An expression of SQL text with `bindings` for its `?` placeholders, in order.
    @inlinable
    public init(_ sql: String, bindings: [BoutiqueSQLite.DatabaseValue] = []) {
        queryFragment = QueryFragment(sql, bindings: bindings)
    }
}

import BoutiqueSQLite
