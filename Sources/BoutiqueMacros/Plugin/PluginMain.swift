// The compiler plugin's entry point.
//
// Built against the swift-syntax package (Xcode), it is the package's `CompilerPlugin`. Built against
// the SwiftSyntax modules inside the toolchain (Linux, offline), which do not include the
// `SwiftCompilerPlugin` module, the plugin speaks the compiler's message protocol itself through
// `SwiftCompilerPluginMessageHandling`: a provider that maps macro type names to their implementations,
// and a connection over standard input and output.
#if canImport(SwiftCompilerPlugin)
import SwiftCompilerPlugin
#else
@_spi(PluginMessage) import SwiftCompilerPluginMessageHandling
#endif
import SwiftSyntaxMacros

/// Every macro this plugin implements, by the type name the `#externalMacro` declarations use.
var providedMacros: [String: any Macro.Type] {
    [
        "TableMacro": TableMacro.self,
        "ColumnMacro": ColumnMacro.self,
        "EphemeralMacro": EphemeralMacro.self,
        "SelectionMacro": SelectionMacro.self,
        "BoutiqueTableMacro": BoutiqueTableMacro.self,
        "SQLMacro": SQLMacro.self,
        "BindMacro": BindMacro.self,
        "DatabaseFunctionMacro": DatabaseFunctionMacro.self,
    ]
}

#if canImport(SwiftCompilerPlugin)
@main
struct BoutiqueMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = Array(providedMacros.values)
}
#else
struct BoutiquePluginProvider: PluginProvider {
    struct UnknownMacro: Error, CustomStringConvertible {
        let name: String
        var description: String { "BoutiqueMacros has no macro named \(name)" }
    }

    func resolveMacro(moduleName: String, typeName: String) throws -> any Macro.Type {
        guard let macro = providedMacros[typeName] else { throw UnknownMacro(name: typeName) }
        return macro
    }
}

@main
struct BoutiqueMacrosPlugin {
    static func main() throws {
        let connection = try StandardIOMessageConnection()
        let listener = CompilerPluginMessageListener(connection: connection, provider: BoutiquePluginProvider())
        try listener.main()
    }
}
#endif
