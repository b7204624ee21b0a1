import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@BoutiqueTable(strict:withoutRowID:)`: table options for a `@Table` struct, and its `CREATE TABLE`.
///
/// ```swift
/// @Table @BoutiqueTable(strict: true, withoutRowID: true)
/// struct Note { @Column(primaryKey: true) let id: UUID; var title: String }
///
/// Note.createTableSQL
/// // CREATE TABLE "note" ("id" TEXT PRIMARY KEY NOT NULL, "title" TEXT NOT NULL) STRICT, WITHOUT ROWID
/// ```
///
/// The expansion conforms the struct to `BoutiqueTableOptions` with its options; the runtime renders the
/// statement from the columns `@Table` generates. A `WITHOUT ROWID` table needs a primary key, which is
/// checked here.
public struct BoutiqueTableMacro: ExtensionMacro {
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
            context.diagnose(NotAStruct.diagnostic(macro: "@BoutiqueTable", node: node, declaration: declaration))
            return []
        }
        var problems = DiagnosticList()
        let hasTable = structDecl.attributes.contains { $0.as(AttributeSyntax.self)?.isNamed("Table") ?? false }
        if !hasTable {
            problems.add(
                node, .error("boutiqueTableWithoutTable", "@BoutiqueTable needs @Table on the same struct"),
                fixIts: [FixIts.addAttribute("Table", to: structDecl, message: "add '@Table'")])
        }
        let strict = flag("strict", in: node, problems: &problems)
        let withoutRowID = flag("withoutRowID", in: node, problems: &problems)
        // The columns are only read to find the key; `@Table` reports what is wrong with them.
        if withoutRowID, hasTable, ModelSchema(reading: structDecl, as: .table).primaryKey == nil {
            problems.add(
                node,
                .error(
                    "withoutRowIDWithoutPrimaryKey",
                    "a WITHOUT ROWID table needs a primary key: add a column named 'id' or mark one @Column(primaryKey: true)"))
        }
        for diagnostic in problems.items { context.diagnose(diagnostic) }
        guard !problems.hasErrors else { return [] }

        var options: [String] = []
        if strict { options.append(".strict") }
        if withoutRowID { options.append(".withoutRowID") }
        let access = AccessLevel(of: structDecl, in: context.lexicalContext).prefix
        let conformances = protocols.contains { $0.isNamed("BoutiqueTableOptions") }
            ? ["BoutiqueQueries.BoutiqueTableOptions"] : []
        let member = "    \(access)static var tableOptions: BoutiqueQueries.TableOptions { [\(options.joined(separator: ", "))] }"
        return [ExtensionDeclSyntax.make(type: type.trimmedDescription, conformances: conformances, body: member)]
    }

    /// The Boolean literal given for `label`, `false` when absent.
    private static func flag(_ label: String, in node: AttributeSyntax, problems: inout DiagnosticList) -> Bool {
        guard case .argumentList(let arguments) = node.arguments,
            let argument = arguments.first(where: { $0.label?.text == label })
        else { return false }
        guard let literal = argument.expression.as(BooleanLiteralExprSyntax.self) else {
            problems.add(argument.expression, .error("optionNotLiteral", "'\(label):' must be 'true' or 'false'"))
            return false
        }
        return literal.literal.tokenKind == .keyword(.true)
    }
}
