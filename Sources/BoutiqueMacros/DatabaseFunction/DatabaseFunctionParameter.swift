/// One SQL argument of a database function, as the expansion needs it.
///
/// ```swift
/// func concat(first: String, separator sep: String = " ") -> String
/// // first: label "first", name "first", type String
/// // sep:   label "separator", name "sep", type String, default " "
/// ```
struct DatabaseFunctionParameter {
    /// The argument label, `nil` for `_`.
    let label: String?
    /// The parameter's name in the generated `callAsFunction`.
    let name: String
    /// The Swift type the function takes.
    let type: String
    /// The representation the argument is read with: `type`, or what `as:` names.
    let representation: String
    /// The default value's source text, for `callAsFunction`.
    let defaultValue: String?

    /// `label name: some QueryExpression<Representation> = default`.
    var expressionParameter: String {
        let names = label == name ? name : "\(label ?? "_") \(name)"
        let value = defaultValue.map { " = \($0)" } ?? ""
        return "\(names): some BoutiqueQueries.QueryExpression<\(representation)>\(value)"
    }
}
