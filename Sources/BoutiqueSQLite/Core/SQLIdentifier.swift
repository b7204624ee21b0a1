/// Quoting for SQL identifiers (table, column, savepoint names).
///
/// Values are always bound as parameters; identifiers cannot be, so they are quoted instead:
/// wrapped in double quotes, with embedded double quotes doubled.
public enum SQLIdentifier {
    /// `note` → `"note"`, `we"ird` → `"we""ird"`.
    ///
    /// Works on the UTF-8 bytes, as SQLite reads them: a quote followed by a combining mark is one
    /// Swift `Character` that is not `"`, yet its quote byte still ends an identifier for SQLite, so it
    /// must be doubled too. (Bytes are also much faster than characters here.)
    public static func quote(_ identifier: String) -> String {
        let quote = UInt8(ascii: "\"")
        guard identifier.utf8.contains(quote) else { return "\"" + identifier + "\"" }
        var bytes: [UInt8] = [quote]
        bytes.reserveCapacity(identifier.utf8.count + 8)
        for byte in identifier.utf8 {
            bytes.append(byte)
            if byte == quote { bytes.append(quote) }
        }
        bytes.append(quote)
        return String(decoding: bytes, as: UTF8.self)
    }
}
