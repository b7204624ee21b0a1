import BoutiqueDB

/// A SQL text query whose rows are read as plain values: what `watch` observes.
struct RawQuery: QueryStatement, Sendable {
    let text: String

    var query: QueryFragment { QueryFragment(text) }
    var rowSource: String { "query" }

    func decodeRow(_ decoder: inout RowDecoder) throws(BoutiqueError) -> [DatabaseValue] {
        do {
            return try decoder.statement.row()
        } catch {
            throw BoutiqueError(error)
        }
    }
}
