import BoutiqueSQLite

/// SQL literal text for a value, where a statement cannot take a bound parameter (a column's `DEFAULT`).
///
/// ```swift
/// SQLLiteral.render(.text("it's"))   // 'it''s'
/// SQLLiteral.render(.integer(-1))    // -1
/// SQLLiteral.render(.blob([0xCA]))   // X'CA'
/// ```
///
/// Text is quoted with embedded quotes doubled, so no value can end the literal early; text holding a
/// NUL character, which SQL text cannot, is written as a blob cast to text.
public enum SQLLiteral {
    /// The SQL literal that reads as `value`.
    public static func render(_ value: DatabaseValue) -> String {
        switch value {
        case .null:
            return "NULL"
        case .integer(let integer):
            return String(integer)
        case .real(let real):
            if real.isNaN { return "NULL" }
            // SQLite reads an out-of-range literal as infinity.
            if real.isInfinite { return real < 0 ? "-9e999" : "9e999" }
            return "\(real)"
        case .text(let text):
            if text.utf8.contains(0) { return "(CAST(\(hex(Array(text.utf8))) AS TEXT))" }
            return SQLQuote.wrap(text, in: UInt8(ascii: "'"))
        case .blob(let bytes):
            return hex(bytes)
        }
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789ABCDEF")
        var text = "X'"
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return text + "'"
    }
}
