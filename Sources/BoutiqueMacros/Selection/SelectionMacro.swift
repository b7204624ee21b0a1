import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@Selection`: a struct that a query selects into, one field per result column.
///
/// ```swift
/// @Selection struct NoteSummary { let title: String; let tagCount: Int }
///
/// Note.all.select { NoteSummary.Columns(title: $0.title, tagCount: $0.id.count()) }
/// ```
///
/// The expansion conforms the struct to `QuerySelection` (a `QueryRepresentable` that decodes its fields
/// in order) and adds `Columns`, an expression that lists one typed expression per field.
public struct SelectionMacro: ExtensionMacro {
    /// The expansion is laid out as written: reformatting it would only cost time.
    public static var formatMode: FormatMode { .disabled }

    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard let structDecl = declaration.as(StructDeclSyntax.self) else {
            context.diagnose(NotAStruct.diagnostic(macro: "@Selection", node: node, declaration: declaration))
            return []
        }
        let schema = ModelSchema(reading: structDecl, as: .selection)
        for diagnostic in schema.diagnostics.items { context.diagnose(diagnostic) }
        guard !schema.diagnostics.hasErrors else { return [] }

        let typeName = type.trimmedDescription
        let access = AccessLevel(of: structDecl).prefix
        let columns = schema.columns
        let parameters = columns.map { "\($0.swiftName): some BoutiqueQueries.QueryExpression<\($0.representation)>" }
        let fragments = columns.map { "\($0.swiftName).queryFragment" }
        let columnsStruct = """
            \(access)struct Columns: BoutiqueQueries.QueryExpression, Sendable {
                \(access)typealias QueryValue = \(typeName)
                \(access)let queryFragment: BoutiqueQueries.QueryFragment
                \(access)init(\(parameters.joined(separator: ", "))) {
                    self.queryFragment = [\(fragments.joined(separator: ", "))].joined(separator: ", ")
                }
            }
            """
        var decoding = ["\(access)init(decoder: inout BoutiqueQueries.RowDecoder) throws(BoutiqueQueries.BoutiqueError) {"]
        for column in columns {
            decoding.append("    self.\(column.swiftName) = try decoder.decode(\(column.representation).self)")
        }
        decoding.append("}")
        let conformances = protocols.contains { $0.isNamed("QuerySelection") } ? ["BoutiqueQueries.QuerySelection"] : []
        return [
            ExtensionDeclSyntax.make(
                type: typeName, conformances: conformances, members: [columnsStruct, decoding.joined(separator: "\n")])
        ]
    }
}
