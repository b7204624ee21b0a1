import BoutiqueSQLite

/// Decodes values from a record into a model, through the model's own decoding code.
///
/// ```swift
/// let note = try RecordRows.decode(Note.self, from: values, columns: ["id", "title", "body", "updatedAt"])
/// ```
///
/// A model decodes from a statement, so the values are bound to `SELECT ?, ?, …` on a private in-memory
/// connection and read back: every representation (UUID text, dates, JSON, enums) decodes exactly as it
/// does from a table.
enum RecordRows {
    /// The connection, used under its lock by one decode at a time.
    private static let connection = Lock<Connection?>(nil)

    static func decode<T: Table & Sendable>(_ type: T.Type, from values: [DatabaseValue], columns: [String]?) throws(BoutiqueError) -> T {
        let ordered = arrange(values, for: T.schema.map(\.name), columns: columns)
        let result: Result<T, BoutiqueError> = connection.withLock { connection in
            do {
                if connection == nil { connection = try Connection.inMemory() }
                guard let connection else { return .failure(.databaseClosed) }
                let placeholders = Array(repeating: "?", count: max(ordered.count, 1)).joined(separator: ", ")
                let statement = try connection.cachedStatement("SELECT \(placeholders)")
                defer { try? statement.reset() }
                try statement.bind(ordered.isEmpty ? [.null] : ordered)
                guard try statement.step() else { return .failure(.invalidArgument("the decoding query returned no row")) }
                var decoder = RowDecoder(statement: statement, source: T.tableName)
                return .success(try T(decoder: &decoder))
            } catch let error as BoutiqueError {
                return .failure(error)
            } catch let error as SQLiteError {
                return .failure(BoutiqueError(error))
            } catch {
                return .failure(.invalidArgument(String(describing: error)))
            }
        }
        return try result.get()
    }

    /// The values in the model's column order: by name when the table's columns are known, else as
    /// recorded.
    static func arrange(_ values: [DatabaseValue], for modelColumns: [String], columns: [String]?) -> [DatabaseValue] {
        guard let columns else { return values }
        var positions: [String: Int] = [:]
        for (index, name) in columns.enumerated() where positions[name.lowercased()] == nil {
            positions[name.lowercased()] = index
        }
        return modelColumns.map { name in
            guard let index = positions[name.lowercased()], values.indices.contains(index) else { return .null }
            return values[index]
        }
    }
}
