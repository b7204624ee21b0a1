import SwiftSyntax

/// A stored instance property of a struct, as the macros see it.
///
/// ```swift
/// struct Note { var title: String; var count = 0; var label: String { title } }
/// // StoredProperty.all(in:) → title (String), count (no annotation, `= 0`); `label` is computed
/// ```
struct StoredProperty {
    /// The name as written, with backticks if the source has them (`` `default` ``): usable as Swift code.
    let identifier: String
    /// The type annotation, or the one a later binding gives (`var a, b: Int` gives `a` the type `Int`).
    let type: TypeSyntax?
    let initializer: ExprSyntax?
    let isLet: Bool
    let binding: PatternBindingSyntax
    let declaration: VariableDeclSyntax

    /// The property's name without backticks.
    var name: String { identifier.trimmingBackticks }

    /// The `@Column` attribute, if any.
    var columnAttribute: AttributeSyntax? { declaration.attribute(named: "Column") }

    /// The `@Ephemeral` attribute, if any.
    var ephemeralAttribute: AttributeSyntax? { declaration.attribute(named: "Ephemeral") }

    /// `true` when the property starts with a value without an initializer: a `var` of optional type.
    var hasImplicitNilDefault: Bool {
        !isLet && initializer == nil && (type.map(TypeText.isOptional) ?? false)
    }

    /// The stored instance properties among `members`, in declaration order.
    ///
    /// Static, computed and `lazy` properties are left out. Patterns other than a plain name
    /// (`let (a, b) = …`) cannot be columns: they are reported in `unsupported`.
    static func all(
        in members: MemberBlockSyntax, unsupported: inout [PatternBindingSyntax]
    ) -> [StoredProperty] {
        var properties: [StoredProperty] = []
        for member in members.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self), variable.isStoredInstanceCandidate else {
                continue
            }
            let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)
            let bindings = Array(variable.bindings)
            for (index, binding) in bindings.enumerated() {
                if let accessors = binding.accessorBlock, !accessors.isObserversOnly { continue }
                guard let pattern = binding.pattern.as(IdentifierPatternSyntax.self) else {
                    if !binding.pattern.is(WildcardPatternSyntax.self) { unsupported.append(binding) }
                    continue
                }
                // In `var a, b: Int` only the last binding carries the annotation.
                var type = binding.typeAnnotation?.type.trimmed
                if type == nil, binding.initializer == nil {
                    type = bindings[(index + 1)...].lazy.compactMap { $0.typeAnnotation?.type.trimmed }.first
                }
                properties.append(StoredProperty(
                    identifier: pattern.identifier.text, type: type,
                    initializer: binding.initializer?.value.trimmed,
                    isLet: isLet, binding: binding, declaration: variable))
            }
        }
        return properties
    }
}

extension VariableDeclSyntax {
    /// `false` for static, class and lazy properties, which are never columns.
    var isStoredInstanceCandidate: Bool {
        !modifiers.contains {
            switch $0.name.tokenKind {
            case .keyword(.static), .keyword(.class), .keyword(.lazy): true
            default: false
            }
        }
    }

    /// `true` when every binding is computed (has a getter).
    var isComputed: Bool {
        bindings.allSatisfy { binding in
            guard let accessors = binding.accessorBlock else { return false }
            return !accessors.isObserversOnly
        }
    }

    /// The first attribute spelled `@name` or `@Module.name`.
    func attribute(named name: String) -> AttributeSyntax? {
        attributes.lazy.compactMap { $0.as(AttributeSyntax.self) }.first { $0.isNamed(name) }
    }
}

extension AttributeSyntax {
    /// `true` for `@name` and `@Module.name`.
    func isNamed(_ name: String) -> Bool {
        let written = attributeName.trimmedDescription
        return written == name || written.hasSuffix("." + name)
    }
}

extension AccessorBlockSyntax {
    /// `true` for `willSet`/`didSet` blocks, which keep a property stored.
    var isObserversOnly: Bool {
        guard case .accessors(let list) = accessors else { return false }
        return list.allSatisfy {
            $0.accessorSpecifier.tokenKind == .keyword(.willSet) || $0.accessorSpecifier.tokenKind == .keyword(.didSet)
        }
    }
}
