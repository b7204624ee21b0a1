/// SQL's one quoting rule, shared by identifiers (`"…"`) and text literals (`'…'`): wrap the text in
/// the quote character and double every quote inside it.
///
/// ```swift
/// SQLQuote.wrap("we\"ird", in: UInt8(ascii: "\""))   // "we""ird"
/// SQLQuote.wrap("it's", in: UInt8(ascii: "'"))       // 'it''s'
/// ```
///
/// Works on the UTF-8 bytes, as SQLite reads them: a quote followed by a combining mark is one Swift
/// `Character` that is not a quote, yet its quote byte still ends the quoted text for SQLite, so it
/// must be doubled too. (Bytes are also much faster than characters here.)
public enum SQLQuote {
    /// `text` wrapped in `quote`, an ASCII quote character (`"` or `'`), with every quote inside doubled.
    public static func wrap(_ text: String, in quote: UInt8) -> String {
        let quoteText = String(decoding: CollectionOfOne(quote), as: UTF8.self)
        guard text.utf8.contains(quote) else { return quoteText + text + quoteText }
        var bytes: [UInt8] = [quote]
        bytes.reserveCapacity(text.utf8.count + 8)
        for byte in text.utf8 {
            bytes.append(byte)
            if byte == quote { bytes.append(quote) }
        }
        bytes.append(quote)
        return String(decoding: bytes, as: UTF8.self)
    }
}
