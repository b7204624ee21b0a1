// How `$name` makes the function type from the function: by name, on `self`, or on a weak `self`.

extension DatabaseFunctionExpansion {
    /// The lines that make the function type from the function.
    var construction: [String] {
        let tryPrefix = signature.isThrowing ? "try " : ""
        switch owner {
        case .none, .instance:
            let target = owner == .instance ? "self." : ""
            switch signature.kind {
            case .scalar:
                return ["\(typeName)(\(target)\(signature.reference))"]
            case .aggregate:
                return ["\(typeName) { \(tryPrefix)\(target)\(aggregateCall("$0")) }"]
            case .property:
                return ["\(typeName) { \(tryPrefix)\(target)\(signature.reference) }"]
            }
        case .weakInstance:
            let names: [String]
            let call: String
            switch signature.kind {
            case .scalar:
                names = signature.parameters.indices.map { "p\($0)" }
                let base = signature.reference.prefix { $0 != "(" }
                call = "\(base)(" + signature.parameters.enumerated().map { index, parameter in
                    (parameter.label.map { "\($0): " } ?? "") + "p\(index)"
                }.joined(separator: ", ") + ")"
            case .aggregate:
                names = ["elements"]
                call = aggregateCall("elements")
            case .property:
                names = []
                call = signature.reference
            }
            let arguments = names.isEmpty ? "" : " " + names.joined(separator: ", ")
            return [
                "\(typeName) { [weak self]\(arguments) in",
                "    guard let self else { throw BoutiqueQueries.DatabaseFunctionDeallocated() }",
                "    return \(tryPrefix)self.\(call)",
                "}",
            ]
        }
    }

    /// `mode(priority: elements)`: the aggregate called with its sequence.
    private func aggregateCall(_ elements: String) -> String {
        let base = signature.reference.prefix { $0 != "(" }
        return "\(base)(\(signature.sequenceLabel.map { "\($0): " } ?? "")\(elements))"
    }
}
