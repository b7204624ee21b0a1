/// The clauses of a `SELECT`, kept as fragments until the statement is rendered.
@usableFromInline
struct SelectClauses: Sendable {
    var distinct = false
    /// `nil` selects every column of every table in the `FROM` and `JOIN` clauses.
    var selection: QueryFragment?
    /// Each selected expression of `selection`, in order, for a `select` that adds to them and for
    /// `map`; empty when the selection is the default one.
    var selectedTerms: [QueryFragment] = []
    var defaultSelection: QueryFragment
    /// The table (quoted name) or subquery the rows come from.
    var from: QueryFragment
    var joins: [QueryFragment] = []
    var wheres: [QueryFragment] = []
    var groupBy: [QueryFragment] = []
    var havings: [QueryFragment] = []
    var orderBy: [QueryFragment] = []
    var limit: QueryFragment?
    var offset: QueryFragment?

    @usableFromInline
    init(from table: QueryFragment, defaultSelection: QueryFragment) {
        self.from = table
        self.defaultSelection = defaultSelection
    }

    /// `WHERE (a) AND (b)` — each predicate renders its own parentheses.
    static func conjunction(_ predicates: [QueryFragment]) -> QueryFragment {
        predicates.joined(separator: " AND ")
    }

    /// ` WHERE (a) AND (b)`, or nothing without predicates.
    static func whereClause(_ predicates: [QueryFragment]) -> QueryFragment {
        predicates.isEmpty ? QueryFragment() : " WHERE " + conjunction(predicates)
    }

    var fragment: QueryFragment {
        var query = QueryFragment(distinct ? "SELECT DISTINCT " : "SELECT ")
        query.append(selection ?? defaultSelection)
        query.append(" FROM ")
        query.append(from)
        for join in joins { query.append(" "); query.append(join) }
        query.append(Self.whereClause(wheres))
        if !groupBy.isEmpty { query.append(" GROUP BY "); query.append(groupBy.joined(separator: ", ")) }
        if !havings.isEmpty { query.append(" HAVING "); query.append(Self.conjunction(havings)) }
        if !orderBy.isEmpty { query.append(" ORDER BY "); query.append(orderBy.joined(separator: ", ")) }
        query.append(Self.limitClause(limit: limit, offset: offset))
        return query
    }

    /// ` LIMIT ? OFFSET ?`, either part optional. SQLite has no `OFFSET` without `LIMIT`: an offset
    /// alone renders `LIMIT -1`, which stands for no limit.
    static func limitClause(limit: QueryFragment?, offset: QueryFragment?) -> QueryFragment {
        var clause = QueryFragment()
        if let limit { clause.append(" LIMIT "); clause.append(limit) }
        if let offset {
            if limit == nil { clause.append(" LIMIT -1") }
            clause.append(" OFFSET ")
            clause.append(offset)
        }
        return clause
    }
}
