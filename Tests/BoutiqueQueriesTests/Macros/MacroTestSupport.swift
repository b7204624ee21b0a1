import BoutiqueQueries
import BoutiqueSQLite

/// Runtime helpers for the macro tests: reading a table's rows through its generated decoder.
enum MacroTestSupport {
    /// `SELECT "a", "b", … FROM "table"` for every column the table declares, in order.
    static func selectAll<T: Table>(_ table: T.Type, orderBy: String? = nil) -> String {
        let columns = T.TableColumns.allColumns.map { SQLIdentifier.quote($0.name) }.joined(separator: ", ")
        var sql = "SELECT \(columns) FROM \(T.quotedTableName)"
        if let orderBy { sql += " ORDER BY \(orderBy)" }
        return sql
    }

    /// Every row of `table`, decoded with the generated `init(decoder:)`.
    static func fetchAll<T: Table>(_ table: T.Type, from connection: Connection, orderBy: String? = nil) throws -> [T] {
        let statement = try connection.prepare(selectAll(table, orderBy: orderBy))
        var rows: [T] = []
        while try statement.step() {
            var decoder = RowDecoder(statement: statement, source: T.tableName)
            rows.append(try T(decoder: &decoder))
        }
        return rows
    }

    /// `INSERT INTO "table" ("a", …) VALUES (?, …)` for the insertable columns, bound from `values`.
    static func insert<T: Table>(_ table: T.Type, values: [DatabaseValue], into connection: Connection) throws {
        let names = T.TableColumns.allColumns.filter(\.isWritable).map { SQLIdentifier.quote($0.name) }
        let sql = "INSERT INTO \(T.quotedTableName) (\(names.joined(separator: ", "))) VALUES ("
            + Array(repeating: "?", count: names.count).joined(separator: ", ") + ")"
        try connection.execute(sql, values)
    }

    /// The values `row.encodeColumns(into:)` writes.
    static func encoded<T: Table>(_ row: T) -> [DatabaseValue] {
        var encoder = RowEncoder()
        row.encodeColumns(into: &encoder)
        return encoder.values
    }

    /// The values a draft writes.
    static func encoded<D: TableDraft>(draft: D) -> [DatabaseValue] {
        var encoder = RowEncoder()
        draft.encodeColumns(into: &encoder)
        return encoder.values
    }
}
