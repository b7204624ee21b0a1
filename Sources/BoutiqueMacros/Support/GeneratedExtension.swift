import SwiftSyntax

extension ExtensionDeclSyntax {
    /// `nonisolated extension Type: Conformances {` body `}`, with the body kept as source text (its
    /// members indented one level).
    ///
    /// ```swift
    /// ExtensionDeclSyntax.make(type: "Note", conformances: ["BoutiqueQueries.Table"], body: "    static var tableName: String { \"note\" }")
    /// ```
    ///
    /// The compiler receives an expansion as text and parses it itself, so the members are not parsed
    /// here: parsing them in the plugin took most of its time and gave the compiler nothing. The body is
    /// carried verbatim by a single token; everything around it is real syntax.
    ///
    /// `nonisolated` keeps the conformance usable from any context in modules whose default isolation is
    /// the main actor, as app targets often are: rows are decoded off the main actor. The plugin is built
    /// by the compiler that runs it, so its version says whether the modifier is understood.
    static func make(type: String, conformances: [String], body: String) -> ExtensionDeclSyntax {
        var modifiers: DeclModifierListSyntax = []
        #if compiler(>=6.1)
        modifiers.append(DeclModifierSyntax(name: .keyword(.nonisolated, trailingTrivia: .space)))
        #endif
        var inheritance: InheritanceClauseSyntax?
        if !conformances.isEmpty {
            let types = conformances.enumerated().map { index, name in
                InheritedTypeSyntax(
                    type: TypeSyntax(IdentifierTypeSyntax(name: .identifier(name))),
                    trailingComma: index < conformances.count - 1 ? .commaToken(trailingTrivia: .space) : nil)
            }
            inheritance = InheritanceClauseSyntax(
                colon: .colonToken(trailingTrivia: .space), inheritedTypes: InheritedTypeListSyntax(types))
        }
        let verbatim = MissingDeclSyntax(attributes: [], modifiers: [], placeholder: .identifier(body))
        return ExtensionDeclSyntax(
            modifiers: modifiers,
            extensionKeyword: .keyword(.extension, trailingTrivia: .space),
            extendedType: TypeSyntax(IdentifierTypeSyntax(name: .identifier(type))),
            inheritanceClause: inheritance,
            memberBlock: MemberBlockSyntax(
                leftBrace: .leftBraceToken(leadingTrivia: .space, trailingTrivia: .newline),
                members: [MemberBlockItemSyntax(decl: DeclSyntax(verbatim))],
                rightBrace: .rightBraceToken(leadingTrivia: .newline)))
    }
}
