import BoutiqueSQLite

/// A `DELETE` of the rows a filter selects.
///
/// ```swift
/// try Note.where { $0.title == "" }.delete().execute(connection)
/// try Note.delete(note).execute(connection)
/// ```
public struct Delete<Root: Table>: QueryStatement {
    public typealias Row = Void

    var wheres: [QueryFragment]

    public var rowSource: String { Root.tableName }
    public func decodeRow(_ decoder: inout RowDecoder) throws(BoutiqueError) {}

    public var query: QueryFragment {
        QueryFragment("DELETE FROM " + Root.quotedTableName) + SelectClauses.whereClause(wheres)
    }

    /// Deletes only the rows for which `predicate` holds.
    public func `where`(_ predicate: (Root.TableColumns) -> some QueryExpression<Bool>) -> Self {
        var copy = self
        copy.wheres.append(predicate(Root.columns).queryFragment)
        return copy
    }
}

extension Table {
    /// Deletes every row (narrow it with `where`).
    public static func delete() -> Delete<Self> { Delete(wheres: []) }
}

extension PrimaryKeyedTable {
    /// Deletes the row with `row`'s primary key.
    public static func delete(_ row: Self) -> Delete<Self> {
        var encoder = RowEncoder()
        row.encodeColumns(into: &encoder)
        let key = columns.primaryKey.name
        let keyValue = zip(Insert<Self>.insertColumns, encoder.values).first { $0.0 == key }?.1 ?? .null
        return Delete(wheres: [QueryFragment(columns.primaryKey.queryFragment.sql + " = ?", bindings: [keyValue])])
    }
}

extension Select where Columns: TableDefinition, Output == Columns.Root {
    /// Deletes the rows this select's filter picks.
    public func delete() -> Delete<Output> { Delete(wheres: clauses.wheres) }
}
