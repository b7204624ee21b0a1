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
/// The expansion conforms the struct to `QuerySelection` (a `Table` without a key, named after the
/// type, that decodes its fields in order) and adds `Columns`, an expression that lists one typed
/// expression per field.
public struct SelectionMacro: ExtensionMacro, MemberMacro {
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
        // On a `@Table` struct (a view's rows, as earlier releases declared them), `@Table` does
        // everything, `Columns` included, as it does for every table: `@Selection` adds nothing.
        if Self.isTable(structDecl) { return [] }
        if let generics = structDecl.genericParameterClause {
            // A selection is a table, and a table's name and column handles name one type.
            context.diagnose(Diagnostic(
                node: generics,
                message: MacroMessage.error("genericSelection", "@Selection does not support generic types")))
            return []
        }
        var schema = ModelSchema(reading: structDecl, as: .selection)
        var problems = schema.diagnostics
        problems.append(contentsOf: TableMacro.reservedNames(in: schema, names: ["queryFragment"]))
        for diagnostic in problems.items { context.diagnose(diagnostic) }
        guard !problems.hasErrors else { return [] }
        if NestedTypeNames.isNested(context.lexicalContext) {
            var names = NestedTypeNames()
            schema = names.aliasing(schema)
        }

        // The struct is also a table named after it, with no key: the rows of a common table
        // expression, which the statement after `WITH` reads as it reads any table's. Its `Columns`
        // come with the table's expansion.
        let typeName = type.trimmedDescription
        let access = AccessLevel(of: structDecl, in: context.lexicalContext).prefix
        let table = TableExpansion(
            typeName: typeName, tableName: TableMacro.defaultTableName(for: structDecl.name.text), schema: schema,
            access: access)
        let body = table.body
        let conformances = protocols.contains { $0.isNamed("QuerySelection") } ? ["BoutiqueQueries.QuerySelection"] : []
        return [ExtensionDeclSyntax.make(type: typeName, conformances: conformances, body: body)]
            + JSONPathMembersExpansion.extensions(
                of: structDecl, typeName: typeName, access: access, schema: schema, protocols: protocols)
    }

    /// For a nested struct, the enum of aliases of the types its fields name (on a `@Table` struct,
    /// `@Table` adds it).
    public static func expansion(
        of node: AttributeSyntax,
        providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let structDecl = declaration.as(StructDeclSyntax.self), !isTable(structDecl) else { return [] }
        return NestedTypeNames.members(of: structDecl, as: .selection, in: context)
    }

    /// `true` when the struct is also `@Table`.
    static func isTable(_ structDecl: StructDeclSyntax) -> Bool {
        structDecl.attributes.contains { element in
            guard let name = element.as(AttributeSyntax.self)?.attributeName.trimmedDescription else { return false }
            return name == "Table" || name.hasSuffix(".Table")
        }
    }
}

