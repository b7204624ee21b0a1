/// Quoting for SQL identifiers (table, column, savepoint names).
///
/// Values are always bound as parameters; identifiers cannot be, so they are quoted instead:
/// wrapped in double quotes, with embedded double quotes doubled.
public enum SQLIdentifier {
    /// `note` → `"note"`, `we"ird` → `"we""ird"` (see ``SQLQuote`` for why it works on bytes).
    public static func quote(_ identifier: String) -> String {
        SQLQuote.wrap(identifier, in: UInt8(ascii: "\""))
    }
}
