import SwiftDiagnostics
import SwiftSyntax

/// The fix-its the macros offer, built from the syntax they change.
enum FixIts {
    /// `let x = 1` → `var x = 1`.
    static func replaceLetWithVar(_ declaration: VariableDeclSyntax) -> FixIt {
        let specifier = declaration.bindingSpecifier
        return FixIt.replace(
            message: FixMessage("replace 'let' with 'var'"), oldNode: specifier,
            newNode: specifier.with(\.tokenKind, .keyword(.var)))
    }

    /// `let x = 1` → `@Ephemeral let x = 1`.
    static func markEphemeral(_ declaration: VariableDeclSyntax) -> FixIt {
        addAttribute("Ephemeral", to: declaration, message: "mark it @Ephemeral")
    }

    /// Adds `@name` in front of a declaration's attributes, keeping its indentation and comments in front.
    static func addAttribute<Declaration: WithAttributesSyntax & DeclSyntaxProtocol>(
        _ name: String, to declaration: Declaration, message: String
    ) -> FixIt {
        var attribute = AttributeSyntax(
            atSign: .atSignToken(), attributeName: TypeSyntax(IdentifierTypeSyntax(name: .identifier(name))))
        attribute.leadingTrivia = declaration.leadingTrivia
        attribute.trailingTrivia = .space
        var edited = declaration
        edited.leadingTrivia = []
        edited.attributes = [.attribute(attribute)] + declaration.attributes.with(\.leadingTrivia, [])
        return FixIt.replace(message: FixMessage(message), oldNode: declaration, newNode: edited)
    }

    /// Removes an attribute from a declaration; what stood in front of it moves to the next token.
    ///
    /// The attribute is found by its text: a macro receives its attribute and the declaration as separate
    /// trees, so their identities do not match.
    static func removeAttribute<Declaration: WithAttributesSyntax>(
        _ attribute: AttributeSyntax, from declaration: Declaration
    ) -> FixIt {
        let text = attribute.trimmedDescription
        var attributes = Array(declaration.attributes)
        var edited = declaration
        if let index = attributes.firstIndex(where: { $0.trimmedDescription == text }) {
            let removed = attributes.remove(at: index)
            edited.attributes = AttributeListSyntax(attributes)
            if index == 0 { edited.leadingTrivia = removed.leadingTrivia }
        }
        return FixIt.replace(
            message: FixMessage("remove '@\(attribute.attributeName.trimmedDescription)'"), oldNode: declaration,
            newNode: edited)
    }

    /// `@Column("a", primaryKey: true)` → `@Column("a")`; `@Column(primaryKey: true)` → `@Column`.
    static func removeArgument(_ label: String, from attribute: AttributeSyntax) -> FixIt {
        var edited = attribute
        if case .argumentList(let arguments) = attribute.arguments {
            var kept = Array(arguments.filter { $0.label?.text != label })
            if kept.isEmpty {
                edited = attribute.with(\.leftParen, nil).with(\.arguments, nil).with(\.rightParen, nil)
                    .with(\.trailingTrivia, attribute.trailingTrivia)
            } else {
                kept[kept.count - 1] = kept[kept.count - 1].with(\.trailingComma, nil)
                edited = attribute.with(\.arguments, .argumentList(LabeledExprListSyntax(kept)))
            }
        }
        return FixIt.replace(message: FixMessage("remove '\(label):'"), oldNode: attribute, newNode: edited)
    }

    /// `func f() async throws` → `func f() throws`: removes a keyword with the space after it, keeping
    /// what stands in front of it.
    static func removeToken(_ token: TokenSyntax) -> FixIt {
        FixIt.replace(
            message: FixMessage("remove '\(token.text)'"), oldNode: token,
            newNode: TokenSyntax.identifier("").with(\.leadingTrivia, token.leadingTrivia))
    }
}
