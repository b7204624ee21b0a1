import SwiftDiagnostics
import SwiftSyntax

/// A diagnostic the macros emit: a message with a stable identifier.
///
/// ```swift
/// context.diagnose(Diagnostic(node: node, message: MacroMessage.error("notAStruct", "@Table applies to a struct")))
/// ```
struct MacroMessage: DiagnosticMessage, Error {
    let message: String
    let diagnosticID: MessageID
    let severity: DiagnosticSeverity

    static func error(_ id: String, _ message: String) -> MacroMessage {
        MacroMessage(message: message, diagnosticID: MessageID(domain: "BoutiqueMacros", id: id), severity: .error)
    }

    static func warning(_ id: String, _ message: String) -> MacroMessage {
        MacroMessage(message: message, diagnosticID: MessageID(domain: "BoutiqueMacros", id: id), severity: .warning)
    }
}

/// The title of a fix-it, as shown in the editor.
struct FixMessage: FixItMessage {
    let message: String
    var fixItID: MessageID { MessageID(domain: "BoutiqueMacros", id: message) }

    init(_ message: String) { self.message = message }
}

/// Diagnostics gathered while reading a declaration, emitted at once or dropped by the caller.
///
/// Two macros read the same struct (`@Table` and `@BoutiqueTable`); only one of them reports what is
/// wrong with its members, so reading and reporting are separate steps.
struct DiagnosticList {
    private(set) var items: [Diagnostic] = []

    var isEmpty: Bool { items.isEmpty }
    var hasErrors: Bool { items.contains { $0.diagMessage.severity == .error } }

    mutating func add(_ node: some SyntaxProtocol, _ message: MacroMessage, fixIts: [FixIt] = []) {
        items.append(Diagnostic(node: Syntax(node), message: message, fixIts: fixIts))
    }

    mutating func append(contentsOf other: DiagnosticList) { items += other.items }
}
