import BoutiqueMacros
import Foundation
import SwiftDiagnostics
import SwiftParser
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros
import Testing

/// A diagnostic a macro expansion is expected to emit: its message, where, and the fix-its it offers.
struct ExpectedDiagnostic: CustomStringConvertible {
    let message: String
    let line: Int
    let column: Int
    var severity: DiagnosticSeverity = .error
    var fixIts: [String] = []

    var description: String {
        "\(line):\(column) \(severity == .error ? "error" : severity == .warning ? "warning" : "note"): \(message)"
            + (fixIts.isEmpty ? "" : " [fix-its: \(fixIts.joined(separator: "; "))]")
    }
}

/// The macros as the compiler sees them: the attribute and expression names users write, with the
/// conformances each extension macro declares.
let boutiqueMacros: [String: MacroSpec] = [
    "Table": MacroSpec(
        type: TableMacro.self, conformances: ["BoutiqueQueries.Table", "BoutiqueQueries.PrimaryKeyedTable", "BoutiqueQueries.JSONPathObject"]),
    "Column": MacroSpec(type: ColumnMacro.self),
    "Ephemeral": MacroSpec(type: EphemeralMacro.self),
    "Selection": MacroSpec(
        type: SelectionMacro.self, conformances: ["BoutiqueQueries.QuerySelection", "BoutiqueQueries.JSONPathObject"]),
    "BoutiqueTable": MacroSpec(type: BoutiqueTableMacro.self, conformances: ["BoutiqueQueries.BoutiqueTableOptions"]),
    "sql": MacroSpec(type: SQLMacro.self),
    "bind": MacroSpec(type: BindMacro.self),
    "DatabaseFunction": MacroSpec(type: DatabaseFunctionMacro.self),
]

/// Expands the macros in `source` and checks the expanded text, the diagnostics (message, line, column,
/// severity, fix-it titles) and, when given, the source after applying the fix-its (the first of each
/// diagnostic, or the one at `applyingFixIt`).
///
/// ```swift
/// assertExpansion("@Table struct T { let id: Int }", expandedSource: "struct T { let id: Int }\n\nnonisolated extension T …")
/// ```
func assertExpansion(
    _ source: String,
    expandedSource expected: String,
    diagnostics expectedDiagnostics: [ExpectedDiagnostic] = [],
    fixedSource expectedFixed: String? = nil,
    applyingFixIt fixItIndex: Int = 0,
    macros: [String: MacroSpec] = boutiqueMacros,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    let result = MacroExpansionResult(expanding: source, macros: macros, fixItIndex: fixItIndex)
    let actual = result.expandedSource
    if actual != expected.trimmingCharacters(in: .newlines) {
        Issue.record(
            "expansion differs\n\(firstDifference(actual, expected.trimmingCharacters(in: .newlines)))\n--- actual ---\n\(actual)",
            sourceLocation: sourceLocation)
    }
    let actualDiagnostics = result.diagnostics.map(\.description)
    let wantedDiagnostics = expectedDiagnostics.map(\.description)
    #expect(actualDiagnostics == wantedDiagnostics, sourceLocation: sourceLocation)
    if let expectedFixed {
        #expect(result.fixedSource == expectedFixed.trimmingCharacters(in: .newlines), sourceLocation: sourceLocation)
    }
}

/// One expansion: the expanded text, the diagnostics as ``ExpectedDiagnostic`` values and the fixed source.
struct MacroExpansionResult {
    let expandedSource: String
    let diagnostics: [ExpectedDiagnostic]
    let fixedSource: String

    /// Expands `source`; ``fixedSource`` applies fix-it number `fixItIndex` of each diagnostic that has
    /// one (a diagnostic's fix-its are alternatives).
    init(expanding source: String, macros: [String: MacroSpec], fixItIndex: Int = 0) {
        let file = Parser.parse(source: source)
        let context = BasicMacroExpansionContext(
            sourceFiles: [file: .init(moduleName: "TestModule", fullFilePath: "Test.swift")])
        // Each macro sees the declarations around it, as in the compiler.
        let expanded = file.expand(
            macroSpecs: macros,
            contextGenerator: { BasicMacroExpansionContext(sharingWith: context, lexicalContext: $0.allMacroLexicalContexts()) },
            indentationWidth: .spaces(4))
        expandedSource = expanded.description.trimmingCharacters(in: .newlines)
        let converter = SourceLocationConverter(fileName: "Test.swift", tree: file)
        // Macros see detached copies of the syntax; the context maps their positions back to the file.
        func originalPosition(_ position: AbsolutePosition, anchoredAt node: Syntax) -> AbsolutePosition {
            let location = context.location(for: position, anchoredAt: node, fileName: "Test.swift")
            return converter.position(ofLine: location.line, column: location.column)
        }
        diagnostics = context.diagnostics.map { diagnostic in
            let location = context.location(for: diagnostic.position, anchoredAt: diagnostic.node, fileName: "Test.swift")
            return ExpectedDiagnostic(
                message: diagnostic.message, line: location.line, column: location.column,
                severity: diagnostic.diagMessage.severity, fixIts: diagnostic.fixIts.map(\.message.message))
        }
        let edits = context.diagnostics.flatMap { diagnostic in
            diagnostic.fixIts.dropFirst(fixItIndex).prefix(1).flatMap(\.edits).map { edit in
                SourceEdit(
                    range: originalPosition(edit.range.lowerBound, anchoredAt: diagnostic.node)
                        ..< originalPosition(edit.range.upperBound, anchoredAt: diagnostic.node),
                    replacement: edit.replacement)
            }
        }
        fixedSource = Self.apply(edits, to: source).trimmingCharacters(in: .newlines)
    }

    /// `source` with `edits` applied, last first so that earlier offsets stay valid.
    static func apply(_ edits: [SourceEdit], to source: String) -> String {
        var bytes = Array(source.utf8)
        for edit in edits.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
            let lower = min(edit.range.lowerBound.utf8Offset, bytes.count)
            let upper = min(edit.range.upperBound.utf8Offset, bytes.count)
            bytes.replaceSubrange(lower..<upper, with: Array(edit.replacement.utf8))
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// The first line where two texts differ, for a readable failure.
private func firstDifference(_ actual: String, _ expected: String) -> String {
    let actualLines = actual.components(separatedBy: "\n")
    let expectedLines = expected.components(separatedBy: "\n")
    for index in 0..<max(actualLines.count, expectedLines.count) {
        let left = index < actualLines.count ? actualLines[index] : "<end>"
        let right = index < expectedLines.count ? expectedLines[index] : "<end>"
        if left != right { return "line \(index + 1):\n  actual:   \(left)\n  expected: \(right)" }
    }
    return "(no difference)"
}
