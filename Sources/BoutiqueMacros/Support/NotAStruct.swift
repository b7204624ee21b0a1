import SwiftDiagnostics
import SwiftSyntax

/// The error for a struct-only macro attached to something else, with a fix-it for classes and actors.
///
/// ```swift
/// @Table class Note {}   // error: @Table can only be applied to a struct; fix-it: replace 'class' with 'struct'
/// ```
enum NotAStruct {
    static func diagnostic(macro: String, node: AttributeSyntax, declaration: some DeclGroupSyntax) -> Diagnostic {
        let message = MacroMessage.error("notAStruct", "\(macro) can only be applied to a struct")
        let keyword: TokenSyntax? =
            declaration.as(ClassDeclSyntax.self)?.classKeyword ?? declaration.as(ActorDeclSyntax.self)?.actorKeyword
        guard let keyword else { return Diagnostic(node: node, message: message) }
        let fixIt = FixIt.replace(
            message: FixMessage("replace '\(keyword.text)' with 'struct'"), oldNode: keyword,
            newNode: keyword.with(\.tokenKind, .keyword(.struct)))
        return Diagnostic(node: node, message: message, fixIts: [fixIt])
    }
}
