import BoutiqueSQLite

/// Turns the column values sync reports (a loss's, a refusal's) into a row of the app's `@Table`
/// type, decoded exactly as a `SELECT` of the table decodes it.
///
/// The values are bound to a one-row `SELECT ?1 AS "id", ?2 AS "title", …` on a private in-memory
/// connection and read with the type's own decoder, so every representation (UUIDs, dates, JSON,
/// enums) reads as it does from the table. Names are matched whatever their case; a column without a
/// value takes its declared default, or NULL when it may hold one, and is otherwise an error.
package enum SyncRowValues {
    package static func decode<T: Table>(_ values: [String: DatabaseValue], as type: T.Type, source: String) throws -> T {
        var byName: [String: DatabaseValue] = [:]
        for (name, value) in values { byName[name.lowercased()] = value }
        let schema = T.schema
        guard !schema.isEmpty else {
            throw BoutiqueError.invalidArgument("\(T.self) declares no columns to decode \(source) into")
        }
        var bound: [DatabaseValue] = []
        bound.reserveCapacity(schema.count)
        for column in schema {
            if let value = byName[column.name.lowercased()] {
                bound.append(value)
            } else if let value = column.defaultValue {
                bound.append(value)
            } else if column.isNullable || column.generated != nil {
                bound.append(.null)
            } else {
                throw BoutiqueError.decoding(.init(
                    table: source, column: column.name, expectedType: "a value for \(T.self)", found: "no value in what sync reported"))
            }
        }
        let text = "SELECT " + schema.indices.map { "?\($0 + 1) AS \(SQLIdentifier.quote(schema[$0].name))" }.joined(separator: ", ")
        // The connection outlives the statement: closing it finalizes its statements.
        let connection: Connection
        let statement: Statement
        do {
            connection = try Connection.inMemory()
            statement = try connection.prepare(text)
            try statement.bind(bound)
            guard try statement.step() else { throw BoutiqueError.invalidArgument("the values of \(source) made no row") }
        } catch let error as SQLiteError {
            throw BoutiqueError(error)
        }
        defer { withExtendedLifetime(connection) { statement.finalize() } }
        var decoder = RowDecoder(statement: statement, source: source)
        return try T(decoder: &decoder)
    }
}
