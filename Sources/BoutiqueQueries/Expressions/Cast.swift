/// `CAST(x AS type)`, where the type is the SQL type the target representation declares its columns
/// with (``QueryRepresentable/sqlType``): `INTEGER`, `REAL`, `TEXT` or `BLOB`.
///
/// The representation decides, not the Swift type alone: a `Date` is cast `AS REAL` (BoutiqueDB stores
/// dates as seconds since 1970), a `Date.ISO8601Representation` `AS TEXT`. A representation declared
/// `ANY` (a whole row) converts nothing, so the expression is left as it is.
enum CastRendering {
    static func render<Target: QueryRepresentable>(_ base: QueryFragment, as _: Target.Type) -> QueryFragment {
        let type = Target.sqlType
        guard type != .any else { return base }
        return "CAST(" + base + " AS " + type.rawValue + ")"
    }
}

extension QueryExpression where QueryValue: QueryRepresentable {
    /// `CAST(x AS type)`: `$0.priority.cast(as: String.self)` reads the number as text. SQLite converts
    /// what does not parse as a number to 0, never to NULL.
    @_disfavoredOverload
    public func cast<Other: QueryRepresentable>(as _: Other.Type = Other.self) -> SQLExpression<Other> {
        SQLExpression(CastRendering.render(queryFragment, as: Other.self))
    }
}

// A NULL stays NULL through a cast, so an optional expression's cast is optional whatever it is cast to.
extension QueryExpression {
    /// `CAST(x AS type)` of an optional expression: NULL stays NULL.
    public func cast<Wrapped: QueryRepresentable, Other: QueryRepresentable>(
        as _: Other.Type = Other.self
    ) -> SQLExpression<Other?> where QueryValue == Wrapped? {
        SQLExpression(CastRendering.render(queryFragment, as: Other.self))
    }

    /// `CAST(x AS type)` of an optional expression to an optional type: `Other?`, not `Other??`.
    public func cast<Wrapped: QueryRepresentable, Other: QueryRepresentable>(
        as _: Other?.Type
    ) -> SQLExpression<Other?> where QueryValue == Wrapped? {
        SQLExpression(CastRendering.render(queryFragment, as: Other.self))
    }
}
