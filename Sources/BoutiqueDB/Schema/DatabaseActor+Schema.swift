import BoutiqueSQLite

extension DatabaseActor {
    /// How the database's tables differ from `expected`; empty when every expected table and column is
    /// there as described. Reads only: nothing is changed.
    ///
    /// ```swift
    /// let differences = try await database.schemaDifferences(expected: [
    ///     TableSchema("note", columns: [.init("id", type: "TEXT"), .init("title", type: "TEXT")]),
    /// ])
    /// ```
    public nonisolated(nonsending) func schemaDifferences(expected: [TableSchema]) async throws -> [SchemaDifference] {
        do {
            return try await read { conn in
                do throws(SQLiteError) { return try SchemaInspector.differences(in: conn.connection, expected: expected) } catch {
                    throw BoutiqueError(error)
                }
            }
        } catch {
            throw BoutiqueError.library(error, writing: false)
        }
    }
}
