/// Swift source text for string literals.
enum StringLiteral {
    /// `a"b\c` → `"a\"b\\c"`: a literal that evaluates to `value`.
    static func quoted(_ value: String) -> String {
        var text = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": text += "\\\\"
            case "\"": text += "\\\""
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    text += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    text.unicodeScalars.append(scalar)
                }
            }
        }
        return text + "\""
    }
}

extension String {
    /// `` `default` `` → `default`: an identifier as a name, without the backticks that escape keywords.
    var trimmingBackticks: String {
        hasPrefix("`") && hasSuffix("`") && count >= 2 ? String(dropFirst().dropLast()) : self
    }
}
