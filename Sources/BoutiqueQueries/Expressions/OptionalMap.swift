// `map` on an optional expression, as `Optional.map` reads in Swift: the transform sees the value as
// not optional, and NULL stays NULL without running it. In SQL that is a CASE on the value's NULL.

extension QueryExpression {
    /// `CASE WHEN x IS NULL THEN NULL ELSE transform(x) END`: `transform` of the value where there is
    /// one, NULL where there is none.
    ///
    /// ```swift
    /// Profile.select { $0.editor.map { $0.jsonExtract(\.name) } }      // [String?]
    /// ```
    public func map<Wrapped: QueryRepresentable, Result: QueryRepresentable>(
        _ transform: (SQLExpression<Wrapped>) -> some QueryExpression<Result>
    ) -> SQLExpression<Result?> where QueryValue == Wrapped? {
        SQLExpression(OptionalMap.render(queryFragment, transform(SQLExpression(queryFragment)).queryFragment))
    }

    /// `CASE WHEN x IS NULL THEN NULL ELSE transform(x) END` where the transform is optional itself:
    /// one level of optional, as `Optional.flatMap` gives.
    public func map<Wrapped: QueryRepresentable, Result: QueryRepresentable>(
        _ transform: (SQLExpression<Wrapped>) -> some QueryExpression<Result?>
    ) -> SQLExpression<Result?> where QueryValue == Wrapped? {
        SQLExpression(OptionalMap.render(queryFragment, transform(SQLExpression(queryFragment)).queryFragment))
    }
}

enum OptionalMap {
    static func render(_ value: QueryFragment, _ transformed: QueryFragment) -> QueryFragment {
        "CASE WHEN " + value + " IS NULL THEN NULL ELSE " + transformed + " END"
    }
}
