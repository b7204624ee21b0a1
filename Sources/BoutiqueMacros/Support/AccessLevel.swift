import SwiftSyntax

/// The access modifier generated members carry: the type's own, so that a public model's conformance is
/// public and an internal model's members do not claim more than the type has.
///
/// ```swift
/// AccessLevel(of: structDecl).prefix   // "public " for `public struct Note`, "" for `struct Note`
/// ```
struct AccessLevel {
    /// `"public "`, `"package "` or `""` (the default, internal or narrower).
    let prefix: String

    init(of declaration: some DeclGroupSyntax) {
        var prefix = ""
        for modifier in declaration.modifiers {
            switch modifier.name.tokenKind {
            case .keyword(.public), .keyword(.open): prefix = "public "
            case .keyword(.package): prefix = "package "
            default: break
            }
        }
        self.prefix = prefix
    }
}
