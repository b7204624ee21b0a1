import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// The types a nested model's columns name, made visible to the extension the macros generate.
///
/// The expansion is an extension at file scope, and Swift looks names up there in the extended type's
/// own members and at file scope, never in the types around it: in
///
/// ```swift
/// enum Shop {
///     enum Size: String, QueryBindable { case small, large }
///     @Table struct Item { let id: Int; var size: Size }
/// }
/// ```
///
/// the extension of `Shop.Item` cannot see `Size`. For a nested model the macro therefore also adds one
/// member to the struct, where every name of the surrounding types is in scope,
/// `enum _BoutiqueTypes { typealias _Size = Size }`, and the extension names `_BoutiqueTypes._Size`.
/// The standard library's and Foundation's common types are visible everywhere and keep their names.
struct NestedTypeNames {
    static let enumName = "_BoutiqueTypes"

    /// Names visible from any file scope, left as they are (some of the expansion also recognises them
    /// by name: `UUID` keys, the plain encoding of `Int` or `String`).
    private static let global: Set<String> = [
        "String", "Substring", "Character", "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16",
        "UInt32", "UInt64", "Double", "Float", "Bool", "Decimal", "Date", "UUID", "Data", "URL", "Optional",
        "Array", "Dictionary", "Set", "Self", "Any", "Swift", "Foundation", "BoutiqueQueries", "BoutiqueDB",
        "JSONRepresentation",
    ]

    /// The aliases, each with the type it names, in the order first met.
    private(set) var aliased: [(alias: String, type: String)] = []

    /// The alias enum for `structDecl` when it is nested and its columns name types of their own; a
    /// schema with errors gets none (the extension reports them).
    static func members(of structDecl: StructDeclSyntax, as kind: ModelSchema.Kind, in context: some MacroExpansionContext) -> [DeclSyntax] {
        guard isNested(context.lexicalContext) else { return [] }
        let schema = ModelSchema(reading: structDecl, as: kind)
        guard !schema.diagnostics.hasErrors else { return [] }
        var names = NestedTypeNames()
        _ = names.aliasing(schema)
        let access = AccessLevel(of: structDecl, in: context.lexicalContext).prefix
        return names.declaration(access: access).map { [$0] } ?? []
    }

    /// `true` when the declaration sits inside a type or an extension.
    static func isNested(_ lexicalContext: [Syntax]) -> Bool {
        lexicalContext.contains {
            $0.is(StructDeclSyntax.self) || $0.is(EnumDeclSyntax.self) || $0.is(ClassDeclSyntax.self)
                || $0.is(ActorDeclSyntax.self) || $0.is(ExtensionDeclSyntax.self)
        }
    }

    /// `schema` with each column's types naming the aliases; the names met are recorded.
    mutating func aliasing(_ schema: ModelSchema) -> ModelSchema {
        var schema = schema
        schema.renameTypes { self.rewrite($0) }
        return schema
    }

    /// The member that declares the aliases, or `nil` when there are none.
    func declaration(access: String) -> DeclSyntax? {
        guard !aliased.isEmpty else { return nil }
        let aliases = aliased.map { "    \(access)typealias \($0.alias) = \($0.type)" }.joined(separator: "\n")
        return DeclSyntax(stringLiteral: "\(access)enum \(Self.enumName) {\n\(aliases)\n}")
    }

    /// `text` (a type) with every plain type name that is not a global one replaced by its alias.
    mutating func rewrite(_ text: String) -> String {
        let renamer = Renamer()
        let rewritten = renamer.rewrite(TypeSyntax(stringLiteral: text))
        for entry in renamer.aliases where !aliased.contains(where: { $0.alias == entry.alias }) { aliased.append(entry) }
        return rewritten.trimmedDescription
    }

    /// Replaces the names that need an alias: a plain name (`Size` → `_BoutiqueTypes._Size`) and a
    /// qualified one whose first part is not global (`Shop.Size`, `OtherModule.Thing` →
    /// `_BoutiqueTypes._Shop_Size`). Backticks are dropped from alias names.
    private final class Renamer: SyntaxRewriter {
        var aliases: [(alias: String, type: String)] = []

        override func visit(_ node: IdentifierTypeSyntax) -> TypeSyntax {
            let visited = super.visit(node)
            // A generic type keeps its name: an alias of it would need its parameters too.
            guard let identifier = visited.as(IdentifierTypeSyntax.self), identifier.genericArgumentClause == nil,
                let name = Self.plainName(identifier.name), !NestedTypeNames.global.contains(name)
            else { return visited }
            return alias("_" + name, for: identifier.name.trimmedDescription, replacing: identifier)
        }

        override func visit(_ node: MemberTypeSyntax) -> TypeSyntax {
            guard let path = Self.path(of: node), let first = path.first, !NestedTypeNames.global.contains(first) else {
                return super.visit(node)
            }
            return alias("_" + path.joined(separator: "_"), for: node.trimmedDescription, replacing: node)
        }

        private func alias(_ alias: String, for type: String, replacing node: some TypeSyntaxProtocol) -> TypeSyntax {
            aliases.append((alias, type))
            let member = MemberTypeSyntax(
                baseType: TypeSyntax(IdentifierTypeSyntax(name: .identifier(NestedTypeNames.enumName))),
                name: .identifier(alias))
            return TypeSyntax(member.with(\.leadingTrivia, node.leadingTrivia).with(\.trailingTrivia, node.trailingTrivia))
        }

        /// `Shop.Size` → `["Shop", "Size"]`; `nil` when a part is generic or not a plain name.
        private static func path(of node: MemberTypeSyntax) -> [String]? {
            guard node.genericArgumentClause == nil, let last = plainName(node.name) else { return nil }
            if let base = node.baseType.as(IdentifierTypeSyntax.self) {
                guard base.genericArgumentClause == nil, let first = plainName(base.name) else { return nil }
                return [first, last]
            }
            guard let base = node.baseType.as(MemberTypeSyntax.self), let prefix = path(of: base) else { return nil }
            return prefix + [last]
        }

        /// The name without backticks; `nil` for a token that is not an identifier (`Self`, `Any`).
        private static func plainName(_ token: TokenSyntax) -> String? {
            guard case .identifier(let text) = token.tokenKind else { return nil }
            return text.hasPrefix("`") && text.hasSuffix("`") && text.count > 2 ? String(text.dropFirst().dropLast()) : text
        }
    }
}
