/// Builds the text of an expansion line by line, indented as it goes.
///
/// ```swift
/// var writer = SourceWriter(indentation: 1)
/// writer.line("struct Draft {")
/// writer.indented { $0.line("var id: Int?") }
/// writer.line("}")
/// writer.text   // "    struct Draft {\n        var id: Int?\n    }"
/// ```
///
/// One string grows in place: the plugin spends its time on text, so the text is built without
/// intermediate arrays of lines.
struct SourceWriter {
    private(set) var text = ""
    private var indentation: Int

    init(indentation: Int = 0) { self.indentation = indentation }

    mutating func line(_ content: String) {
        if !text.isEmpty { text += "\n" }
        for _ in 0..<indentation { text += "    " }
        text += content
    }

    mutating func indented(_ body: (inout SourceWriter) -> Void) {
        indentation += 1
        body(&self)
        indentation -= 1
    }
}
