/// A tenant's collaborative text columns by table, as its devices described them in their table
/// shapes (``/BoutiqueSync/SyncTableShape/collaborativeText``), names lowercased as the server keeps
/// them (``PushNames``).
///
/// The server merges only these columns' values as text, and checks only these as text operations:
/// any other column's value is opaque bytes, whatever they start with (a BLOB column whose values
/// happen to begin as a collaborative text value does is stored and sent unchanged).
struct TextColumns: Sendable {
    private var columns: [String: Set<String>] = [:]

    init() {}

    /// From the tenant's table shapes.
    init(shapes: some Sequence<SyncTableShape>) {
        for shape in shapes {
            guard let named = shape.collaborativeText, !named.isEmpty else { continue }
            columns[shape.table.lowercased(), default: []].formUnion(named.map { $0.lowercased() })
        }
    }

    /// The collaborative text columns of `table` (lowercased); none for a table without any.
    subscript(table: String) -> Set<String> { columns[table] ?? [] }

    /// Whether no table has any.
    var isEmpty: Bool { columns.isEmpty }
}
