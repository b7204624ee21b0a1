/// Rendering helpers shared by the operators.
@usableFromInline
enum Operators {
    /// `(lhs op rhs)`: every binary operation renders its own parentheses, so precedence never surprises.
    @usableFromInline
    static func binary(_ lhs: QueryFragment, _ op: String, _ rhs: QueryFragment) -> QueryFragment {
        var fragment = QueryFragment("(")
        fragment.append(lhs)
        fragment.append(" " + op + " ")
        fragment.append(rhs)
        fragment.append(")")
        return fragment
    }

    /// `name(arguments…)`.
    static func function(_ name: String, _ arguments: [QueryFragment]) -> QueryFragment {
        name + "(" + arguments.joined(separator: ", ") + ")"
    }
}

/// A value of a column's representation, bound as a parameter.
extension QueryRepresentable {
    @usableFromInline
    static func bound(_ value: QueryOutput) -> QueryFragment {
        guard groupedColumns != nil else { return QueryFragment(binding: encode(value)) }
        // A group of columns is compared as a row value, `(?, ?)`, one parameter per column.
        var encoder = RowEncoder()
        encoder.encode(value, as: Self.self)
        let parameters = Array(repeating: "?", count: encoder.values.count).joined(separator: ", ")
        return QueryFragment("(" + parameters + ")", bindings: encoder.values)
    }
}
