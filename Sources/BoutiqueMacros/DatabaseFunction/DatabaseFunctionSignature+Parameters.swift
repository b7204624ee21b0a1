import SwiftDiagnostics
import SwiftSyntax

// Reading a database function's parameters: a scalar function's, each an argument, and an aggregate's
// sequence, whose element is one argument or, as a tuple, several.

extension DatabaseFunctionSignature {
    /// One argument of a scalar function, or `nil` (reported) when SQL cannot pass it.
    mutating func readParameter(
        _ parameter: FunctionParameterSyntax, index: Int, representation: TypeSyntax?
    ) -> DatabaseFunctionParameter? {
        let label = parameter.firstName.tokenKind == .wildcard ? nil : parameter.firstName.text
        let written = (parameter.secondName ?? parameter.firstName)
        let name = written.tokenKind == .wildcard ? "p\(index)" : written.text
        if let ellipsis = parameter.ellipsis {
            problems.add(ellipsis, .error(
                "variadicParameter",
                "variadic parameter '\(name)' cannot be a database function's: SQL passes each argument separately"))
            return nil
        }
        guard let type = checkedType(parameter.type, name: name) else { return nil }
        if type.is(SomeOrAnyTypeSyntax.self), type.as(SomeOrAnyTypeSyntax.self)?.someOrAnySpecifier.tokenKind == .keyword(.some) {
            problems.add(parameter.type, .error(
                "genericFunction",
                "'\(self.name)' is generic through '\(parameter.type.trimmedDescription)', but SQL calls a database function with one concrete type per argument; only an aggregate's single 'some Sequence<Element>' parameter may be opaque"))
            return nil
        }
        let representation = representation?.trimmedDescription ?? type.trimmedDescription
        var defaultValue = parameter.defaultValue?.value.trimmedDescription
        if parameter.defaultValue?.value.is(NilLiteralExprSyntax.self) == true {
            defaultValue = "\(representation).none"
        }
        return DatabaseFunctionParameter(
            label: label, name: name, type: parameter.type.trimmedDescription, representation: representation,
            defaultValue: defaultValue)
    }

    /// The type without `borrowing`, `consuming` or `sending`; `nil` (reported) for `inout`.
    private mutating func checkedType(_ type: TypeSyntax, name: String) -> TypeSyntax? {
        guard let attributed = type.as(AttributedTypeSyntax.self) else { return type }
        for specifier in attributed.specifiers {
            guard case .simpleTypeSpecifier(let simple) = specifier,
                simple.specifier.tokenKind == .keyword(.inout)
            else { continue }
            let edited = attributed.with(\.specifiers, attributed.specifiers.filter { $0.trimmedDescription != "inout" })
            let fixed: TypeSyntax = edited.specifiers.isEmpty && edited.attributes.isEmpty
                ? attributed.baseType.with(\.leadingTrivia, attributed.leadingTrivia) : TypeSyntax(edited)
            problems.add(
                simple.specifier,
                .error("inoutParameter", "'inout' parameter '\(name)' cannot receive a value from SQL"),
                fixIts: [FixIt.replace(message: FixMessage("remove 'inout'"), oldNode: type, newNode: fixed)])
            return nil
        }
        return attributed.baseType
    }

    /// The one parameter of an aggregate: its element becomes one argument, or one per tuple element.
    mutating func readAggregate(
        _ parameter: FunctionParameterSyntax, element: TypeSyntax, representation: TypeSyntax?
    ) {
        sequenceLabel = parameter.firstName.tokenKind == .wildcard ? nil : parameter.firstName.text
        self.element = element.trimmedDescription
        let represented = representation.flatMap(Self.sequenceElement(of:))
        if let tuple = element.as(TupleTypeSyntax.self), tuple.elements.count > 1 {
            let representations = represented?.as(TupleTypeSyntax.self).map { Array($0.elements.map(\.type)) } ?? []
            for (index, item) in tuple.elements.enumerated() {
                let label = item.firstName.flatMap { $0.tokenKind == .wildcard ? nil : $0.text }
                let name = item.secondName.flatMap { $0.tokenKind == .wildcard ? nil : $0.text } ?? label ?? "p\(index)"
                let type = item.type.trimmedDescription
                parameters.append(DatabaseFunctionParameter(
                    label: label, name: name, type: type,
                    representation: index < representations.count ? representations[index].trimmedDescription : type,
                    defaultValue: nil))
            }
        } else {
            let written = parameter.secondName ?? parameter.firstName
            let name = written.tokenKind == .wildcard ? "p0" : written.text
            let type = element.trimmedDescription
            parameters.append(DatabaseFunctionParameter(
                label: sequenceLabel, name: name, type: type,
                representation: represented?.trimmedDescription ?? type, defaultValue: nil))
        }
    }

    /// `X` for `some Sequence<X>` (or `any`, as `as:` writes it), `nil` for any other type.
    static func sequenceElement(of type: TypeSyntax) -> TypeSyntax? {
        guard let opaque = type.as(SomeOrAnyTypeSyntax.self) else { return nil }
        let constraint = opaque.constraint
        let generics: GenericArgumentClauseSyntax?
        if let identifier = constraint.as(IdentifierTypeSyntax.self), identifier.name.text == "Sequence" {
            generics = identifier.genericArgumentClause
        } else if let member = constraint.as(MemberTypeSyntax.self), member.name.text == "Sequence",
            member.baseType.trimmedDescription == "Swift"
        {
            generics = member.genericArgumentClause
        } else {
            return nil
        }
        guard let arguments = generics?.arguments, arguments.count == 1, let argument = arguments.first else { return nil }
        return Syntax(argument.argument).as(TypeSyntax.self)
    }

    /// `Void`, `Swift.Void` and `()`.
    static func isVoid(_ type: TypeSyntax) -> Bool {
        if let tuple = type.as(TupleTypeSyntax.self) { return tuple.elements.isEmpty }
        let text = type.trimmedDescription
        return text == "Void" || text == "Swift.Void"
    }
}
