/// Quoting for SQL identifiers (table, column, savepoint names).
///
/// Values are always bound as parameters; identifiers cannot be, so they are quoted instead:
/// wrapped in double quotes, with embedded double quotes doubled.
public enum SQLIdentifier {
    /// `note` → `"note"`, `we"ird` → `"we""ird"`.
    public static func quote(_ identifier: String) -> String {
        var quoted = "\""
        quoted.reserveCapacity(identifier.utf8.count + 2)
        for character in identifier {
            if character == "\"" { quoted += "\"\"" } else { quoted.append(character) }
        }
        quoted += "\""
        return quoted
    }
}
