import SwiftSyntax

/// A stored instance property of a struct, as the macros see it.
struct StoredProperty {
    let name: String
    let type: TypeSyntax?
    let initializer: ExprSyntax?
    let isLet: Bool
    let binding: PatternBindingSyntax
    let declaration: VariableDeclSyntax

    /// The stored instance properties of `structDecl`, in declaration order.
    static func all(in structDecl: StructDeclSyntax) -> [StoredProperty] {
        var properties: [StoredProperty] = []
        for member in structDecl.memberBlock.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
            let isStatic = variable.modifiers.contains {
                $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class)
            }
            if isStatic { continue }
            let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)
            for binding in variable.bindings {
                guard let identifier = binding.pattern.as(IdentifierPatternSyntax.self) else { continue }
                if let accessors = binding.accessorBlock, !accessors.isObserversOnly { continue }
                properties.append(StoredProperty(
                    name: identifier.identifier.trimmedDescription.trimmingBackticks,
                    type: binding.typeAnnotation?.type.trimmed,
                    initializer: binding.initializer?.value.trimmed,
                    isLet: isLet, binding: binding, declaration: variable))
            }
        }
        return properties
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

extension String {
    var trimmingBackticks: String {
        hasPrefix("`") && hasSuffix("`") && count >= 2 ? String(dropFirst().dropLast()) : self
    }
}

/// Swift source text for string literals.
enum StringLiteral {
    /// `a"b\c` → `"a\"b\\c"`: a literal that evaluates to `value`.
    static func quoted(_ value: String) -> String {
        var text = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": text += "\\\\"
            case "\"": text += "\\\""
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            default:
                if scalar.value < 0x20 {
                    text += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    text.unicodeScalars.append(scalar)
                }
            }
        }
        return text + "\""
    }
}
