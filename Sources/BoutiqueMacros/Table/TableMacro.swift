import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@Table` / `@Table("name")`: makes a struct a table.
///
/// The expansion is one extension that conforms the type to `Table` with its SQL name and its columns
/// in declaration order. Stored properties are columns; computed and static properties are not.
public struct TableMacro: ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard let structDecl = declaration.as(StructDeclSyntax.self) else {
            context.diagnose(Diagnostic(node: node, message: TableDiagnostic.notAStruct))
            return []
        }
        let typeName = structDecl.name.trimmedDescription
        let tableName = explicitTableName(node) ?? defaultTableName(for: typeName)
        let columns = StoredProperty.all(in: structDecl).map(\.name)
        let columnList = columns.map { StringLiteral.quoted($0) }.joined(separator: ", ")
        let extensionDecl: DeclSyntax = """
            extension \(type.trimmed): BoutiqueQueries.Table {
                public static var tableName: String { \(raw: StringLiteral.quoted(tableName)) }
                public static var columnNames: [String] { [\(raw: columnList)] }
            }
            """
        guard let ext = extensionDecl.as(ExtensionDeclSyntax.self) else { return [] }
        return [ext]
    }

    /// The name given as `@Table("name")`, if any.
    static func explicitTableName(_ node: AttributeSyntax) -> String? {
        guard case .argumentList(let arguments) = node.arguments,
            let first = arguments.first, first.label == nil,
            let literal = first.expression.as(StringLiteralExprSyntax.self),
            let value = literal.representedLiteralValue
        else { return nil }
        return value
    }

    /// `Note` → `note`, `URLRecord` → `uRLRecord`: the type name with its first letter lowercased.
    static func defaultTableName(for typeName: String) -> String {
        guard let first = typeName.first else { return typeName }
        return first.lowercased() + typeName.dropFirst()
    }
}

enum TableDiagnostic: String, DiagnosticMessage {
    case notAStruct

    var message: String {
        switch self {
        case .notAStruct: "@Table applies to a struct"
        }
    }

    var diagnosticID: MessageID { MessageID(domain: "BoutiqueMacros", id: rawValue) }
    var severity: DiagnosticSeverity { .error }
}
