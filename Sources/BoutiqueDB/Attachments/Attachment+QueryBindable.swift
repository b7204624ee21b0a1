import BoutiqueSQLite

/// An attachment column holds the value's JSON (``JSONRepresentation``, keys sorted), declared `TEXT`,
/// so that `where { $0.image == image }` compares the text a row was written with.
extension Attachment: QueryBindable {
    public static func decode(from decoder: inout RowDecoder) throws(BoutiqueError) -> Attachment {
        try JSONRepresentation<Attachment>.decode(from: &decoder)
    }

    public static func encode(_ output: Attachment) -> DatabaseValue {
        JSONRepresentation<Attachment>.encode(output)
    }

    public static var sqlType: SQLType { .text }

    /// The stored JSON itself, which `Codable` reads back as the value.
    public static var jsonValueForm: JSONValueForm { .json }
}
