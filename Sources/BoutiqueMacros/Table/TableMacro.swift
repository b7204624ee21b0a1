import SwiftDiagnostics
import SwiftParser
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@Table` / `@Table("name")`: makes a struct a table.
///
/// ```swift
/// @Table struct Note { let id: UUID; var title: String }
/// ```
///
/// The expansion is one extension: the conformance to `Table` (and `PrimaryKeyedTable` when there is a
/// key), the column handles, the table name, positional decoding and encoding, and a `Draft` for inserts
/// whose key the database assigns. Stored properties are columns; computed, static, `lazy` and
/// `@Ephemeral` properties are not. A model nested in another type also gets a member naming the types
/// its columns use (see ``NestedTypeNames``).
public struct TableMacro: ExtensionMacro, MemberMacro {
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
            context.diagnose(NotAStruct.diagnostic(macro: "@Table", node: node, declaration: declaration))
            return []
        }
        if let generics = structDecl.genericParameterClause {
            context.diagnose(Diagnostic(
                node: generics,
                message: MacroMessage.error("genericTable", "@Table does not support generic types")))
            return []
        }
        var problems = DiagnosticList()
        let tableName = tableName(from: node, problems: &problems) ?? defaultTableName(for: structDecl.name.text)
        var schema = ModelSchema(reading: structDecl, as: .table)
        problems.append(contentsOf: schema.diagnostics)
        problems.append(contentsOf: reservedNames(in: schema, names: ["primaryKey", "queryFragment"]))
        for diagnostic in problems.items { context.diagnose(diagnostic) }
        guard !problems.hasErrors else { return [] }

        if NestedTypeNames.isNested(context.lexicalContext) {
            var names = NestedTypeNames()
            schema = names.aliasing(schema)
        }
        let typeName = type.trimmedDescription
        let expansion = TableExpansion(
            typeName: typeName, tableName: tableName, schema: schema, access: AccessLevel(of: structDecl, in: context.lexicalContext).prefix)
        var conformances: [String] = []
        if protocols.contains(where: { $0.isNamed("Table") }) { conformances.append("BoutiqueQueries.Table") }
        if schema.primaryKey != nil, protocols.contains(where: { $0.isNamed("PrimaryKeyedTable") }) {
            conformances.append("BoutiqueQueries.PrimaryKeyedTable")
        }
        return [ExtensionDeclSyntax.make(type: typeName, conformances: conformances, body: expansion.body)]
            + JSONPathMembersExpansion.extensions(
                of: structDecl, typeName: typeName, access: expansion.access, schema: schema, protocols: protocols)
    }

    /// For a nested model, the enum of aliases of the types its columns name; nothing otherwise.
    public static func expansion(
        of node: AttributeSyntax,
        providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let structDecl = declaration.as(StructDeclSyntax.self), structDecl.genericParameterClause == nil else { return [] }
        return NestedTypeNames.members(of: structDecl, as: .table, in: context)
    }

    /// The name given as `@Table("name")`; a name that is not a plain string literal is reported.
    static func tableName(from node: AttributeSyntax, problems: inout DiagnosticList) -> String? {
        guard case .argumentList(let arguments) = node.arguments, let first = arguments.first else { return nil }
        if first.expression.is(NilLiteralExprSyntax.self) { return nil }
        guard let literal = first.expression.as(StringLiteralExprSyntax.self), let value = literal.representedLiteralValue,
            !value.isEmpty
        else {
            problems.add(first.expression, .error("tableNameNotLiteral", "the table name must be a non-empty string literal"))
            return nil
        }
        return value
    }

    /// `Note` → `note`, `URLRecord` → `uRLRecord`: the type name with its first letter lowercased.
    static func defaultTableName(for typeName: String) -> String {
        let name = typeName.trimmingBackticks
        guard let first = name.first else { return name }
        return first.lowercased() + name.dropFirst()
    }

    /// Column properties named as one of `names`, which the generated `TableColumns` needs for itself.
    static func reservedNames(in schema: ModelSchema, names: Set<String>) -> DiagnosticList {
        var problems = DiagnosticList()
        for column in schema.columns where names.contains(column.property.name) {
            problems.add(
                column.property.binding.pattern,
                .error(
                    "reservedColumnName",
                    "a column property cannot be named '\(column.property.name)', which the table's columns use; rename it and keep the SQL name with @Column(\"\(column.sqlName)\")"))
        }
        return problems
    }
}

extension TypeSyntax {
    /// `true` for `Name` and `Module.Name`.
    func isNamed(_ name: String) -> Bool {
        let text = trimmedDescription
        return text == name || text.hasSuffix("." + name)
    }
}
