import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@Column(…)`: names a column, picks its representation, makes it the primary key or a generated column.
///
/// ```swift
/// @Column("body_text") var body: String
/// @Column(as: Date.ISO8601Representation.self) var createdAt: Date
/// @Column(primaryKey: true) let code: String
/// @Column(generated: .virtual("lower(title)")) let titleLower: String
/// ```
///
/// It generates nothing: `@Table` reads it. Its own expansion checks where it is attached and that its
/// arguments are literals the compiler plugin can read.
public struct ColumnMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let variable = declaration.as(VariableDeclSyntax.self) else {
            context.diagnose(Diagnostic(
                node: node, message: MacroMessage.error("columnNotOnProperty", "@Column applies to a stored property")))
            return []
        }
        if !variable.isStoredInstanceCandidate {
            context.diagnose(Diagnostic(
                node: node,
                message: MacroMessage.error(
                    "columnOnStaticProperty", "@Column applies to instance properties; static and lazy properties are never columns"),
                fixIts: [FixIts.removeAttribute(node, from: variable)]))
            return []
        }
        if variable.isComputed {
            context.diagnose(Diagnostic(
                node: node,
                message: MacroMessage.error(
                    "columnOnComputedProperty", "@Column applies to a stored property; computed properties are never columns"),
                fixIts: [FixIts.removeAttribute(node, from: variable)]))
            return []
        }
        if variable.attribute(named: "Ephemeral") != nil {
            context.diagnose(Diagnostic(
                node: node,
                message: MacroMessage.error(
                    "columnAndEphemeral", "a property cannot be both @Column and @Ephemeral: @Ephemeral properties are not columns"),
                fixIts: [FixIts.removeAttribute(node, from: variable)]))
            return []
        }
        let options = ColumnOptions(node)
        for diagnostic in options.problems.items { context.diagnose(diagnostic) }
        if options.primaryKey == true, options.generated != nil {
            context.diagnose(Diagnostic(
                node: node,
                message: MacroMessage.error("generatedPrimaryKey", "a generated column cannot be the primary key"),
                fixIts: [FixIts.removeArgument("primaryKey", from: node)]))
        }
        return []
    }
}
