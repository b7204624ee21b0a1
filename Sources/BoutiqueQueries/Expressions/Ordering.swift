/// Something `ORDER BY` accepts: an expression (ascending) or an ``OrderingTerm``.
public protocol QueryOrdering {
    /// The term's SQL in an `ORDER BY` list: `"note"."updatedAt" DESC`.
    var orderingFragment: QueryFragment { get }
}

/// An expression with a direction and a place for NULLs: `"note"."updatedAt" DESC NULLS LAST`.
public struct OrderingTerm: QueryOrdering, Sendable {
    public let orderingFragment: QueryFragment
}

/// Where NULLs sort.
public enum NullOrdering: String, Sendable {
    /// NULLs before every value: `NULLS FIRST`.
    case first = "NULLS FIRST"
    /// NULLs after every value: `NULLS LAST`.
    case last = "NULLS LAST"
}

extension QueryExpression {
    /// Ascending order: `"x" ASC`.
    public func asc(nulls: NullOrdering? = nil) -> OrderingTerm {
        OrderingTerm(orderingFragment: queryFragment + " ASC" + (nulls.map { " " + $0.rawValue } ?? ""))
    }

    /// Descending order: `"x" DESC`.
    public func desc(nulls: NullOrdering? = nil) -> OrderingTerm {
        OrderingTerm(orderingFragment: queryFragment + " DESC" + (nulls.map { " " + $0.rawValue } ?? ""))
    }
}

extension TableColumn: QueryOrdering {
    public var orderingFragment: QueryFragment { queryFragment }
}

extension SQLExpression: QueryOrdering {
    public var orderingFragment: QueryFragment { queryFragment }
}
