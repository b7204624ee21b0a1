import SwiftSyntax

/// The JSON path members of a `Codable` model (`@Selection` or `@Table`): one `JSONPathMember` per
/// stored property, under the key synthesized `Codable` writes it with, so that `\.links[0].homepage`
/// can name the model's fields inside a JSON column.
///
/// ```swift
/// @Selection struct Link: Codable { var homepage = "" }
/// // extension Link: BoutiqueQueries.JSONPathObject {
/// //     struct JSONPathMembers: Sendable {
/// //         var homepage: BoutiqueQueries.JSONPathMember<String> { .init("homepage") }
/// //     }
/// //     static var jsonPathMembers: JSONPathMembers { JSONPathMembers() }
/// //     typealias JSONPathWritten = BoutiqueQueries.JSONRepresentation<Link>
/// // }
/// ```
///
/// Only a struct that says `Codable` in its own declaration gets them: a macro sees nothing else, and
/// the members cost compile time that models kept out of JSON should not pay.
enum JSONPathMembersExpansion {
    /// `true` when the declaration's inheritance clause names `Codable` (alone, qualified, or in a
    /// composition such as `Codable & Sendable`), or both `Encodable` and `Decodable`.
    static func isDeclaredCodable(_ structDecl: StructDeclSyntax) -> Bool {
        let names = Set((structDecl.inheritanceClause?.inheritedTypes ?? []).flatMap { protocolNames($0.type) })
        return names.contains("Codable") || (names.contains("Encodable") && names.contains("Decodable"))
    }

    /// The unqualified names an inheritance clause entry lists: `Codable` for `Codable` and
    /// `Swift.Codable`, both names for `Codable & Sendable`, none for other spellings.
    private static func protocolNames(_ type: TypeSyntax) -> [String] {
        if let composition = type.as(CompositionTypeSyntax.self) {
            return composition.elements.flatMap { protocolNames($0.type) }
        }
        if let member = type.as(MemberTypeSyntax.self) { return [member.name.text] }
        if let identifier = type.as(IdentifierTypeSyntax.self) { return [identifier.name.text] }
        return []
    }

    /// The extension conforming `typeName` to `JSONPathObject`, or nothing when the struct is not
    /// declared `Codable` or already conforms.
    static func extensions(
        of structDecl: StructDeclSyntax, typeName: String, access: String, schema: ModelSchema,
        protocols: [TypeSyntax]
    ) -> [ExtensionDeclSyntax] {
        guard isDeclaredCodable(structDecl), protocols.contains(where: { $0.isNamed("JSONPathObject") }) else { return [] }
        var writer = SourceWriter(indentation: 1)
        writer.line("\(access)struct JSONPathMembers: Sendable {")
        writer.indented { writer in
            for column in schema.columns {
                let key = column.swiftName.trimmingBackticks
                writer.line(
                    "\(access)var \(column.swiftName): BoutiqueQueries.JSONPathMember<\(column.valueType)> { .init(\(StringLiteral.quoted(key))) }")
            }
        }
        writer.line("}")
        writer.line("\(access)static var jsonPathMembers: JSONPathMembers { JSONPathMembers() }")
        writer.line("\(access)typealias JSONPathWritten = BoutiqueQueries.JSONRepresentation<\(typeName)>")
        return [ExtensionDeclSyntax.make(type: typeName, conformances: ["BoutiqueQueries.JSONPathObject"], body: writer.text)]
    }
}
