import SwiftSyntax

/// The access modifier generated members carry: the type's own, capped by the types it is nested in,
/// so that a public model's conformance is public and no member claims more than the type can offer.
///
/// ```swift
/// AccessLevel(of: structDecl, in: context.lexicalContext).prefix
/// // "public " for `public struct Note`, "" for `struct Note` or for a public struct in an internal enum
/// ```
struct AccessLevel {
    private enum Level: Int, Comparable {
        case `internal`, package, `public`

        static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }

        /// The level a modifier list spells, `nil` when it spells none.
        init?(_ modifiers: DeclModifierListSyntax) {
            var level: Level?
            for modifier in modifiers {
                switch modifier.name.tokenKind {
                case .keyword(.public), .keyword(.open): level = .public
                case .keyword(.package): level = .package
                case .keyword(.internal), .keyword(.fileprivate), .keyword(.private): level = .internal
                default: break
                }
            }
            guard let level else { return nil }
            self = level
        }
    }

    /// `"public "`, `"package "` or `""` (internal or narrower).
    let prefix: String

    /// - Parameter lexicalContext: The declarations around `declaration`, innermost first, as the
    ///   expansion context gives them. An enclosing type without a modifier is internal; an enclosing
    ///   extension without one takes the extended type's access, which is unknown here and not counted.
    init(of declaration: some DeclGroupSyntax, in lexicalContext: [Syntax] = []) {
        var level = Level(declaration.modifiers) ?? .internal
        for enclosing in lexicalContext {
            guard let group = enclosing.asProtocol(DeclGroupSyntax.self) else { continue }
            if let spelled = Level(group.modifiers) {
                level = min(level, spelled)
            } else if !group.is(ExtensionDeclSyntax.self) {
                level = .internal
            }
        }
        switch level {
        case .public: prefix = "public "
        case .package: prefix = "package "
        case .internal: prefix = ""
        }
    }
}
