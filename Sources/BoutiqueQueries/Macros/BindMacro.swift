/// A Swift value bound as a parameter, typed by the representation it is stored with: for a value
/// whose type does not say how it is stored (an array kept as JSON, a date kept as text).
///
/// ```swift
/// Reminder.update { $0.tags = #bind(["home", "garden"]) }                          // a [String].JSONRepresentation
/// Event.where { $0.startsAt < #bind(deadline, as: Date.ISO8601Representation.self) }
/// ```
///
/// It is ``SQLExpression/init(bound:as:)``, spelled as StructuredQueries spells it.
@freestanding(expression)
public macro bind<QueryValue: QueryRepresentable>(
    _ value: QueryValue.QueryOutput, as representation: QueryValue.Type = QueryValue.self
) -> SQLExpression<QueryValue> = #externalMacro(module: "BoutiqueMacros", type: "BindMacro")

extension SQLExpression where QueryValue: QueryRepresentable {
    /// `?` bound to `value` as `representation` stores it.
    ///
    /// ```swift
    /// SQLExpression(bound: ["home"], as: [String].JSONRepresentation.self)   // ? = '["home"]'
    /// ```
    public init(bound value: QueryValue.QueryOutput, as representation: QueryValue.Type = QueryValue.self) {
        self.init(QueryFragment(binding: QueryValue.encode(value)))
    }
}
