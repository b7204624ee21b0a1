/// `INSERT INTO "t" ("a", "b") SELECT …`: writes the rows another statement reads, in one step,
/// without bringing them into Swift.
///
/// ```swift
/// try Tag.insert { $0.name } select: { RemindersList.select { $0.name.lower() } }.execute(connection)
/// ```
///
/// The columns the closure names receive the selected values in order; the others take their defaults.
public struct InsertSelect<Root: Table>: QueryStatement {
    public typealias Row = Void

    public let query: QueryFragment

    init(columns: [String], select: QueryFragment) {
        query = "INSERT INTO " + Root.quotedTableName + " (" + columns.joined(separator: ", ") + ") " + select
    }

    public var rowSource: String { Root.tableName }

    public func decodeRow(_ decoder: inout RowDecoder) throws(BoutiqueError) {}
}

extension Table {
    /// Inserts the rows `selection` returns into the columns `columns` names, in order:
    /// `INSERT INTO "tag" ("name") SELECT …`. The select's row type must match the columns' types.
    public static func insert<each V: QueryRepresentable>(
        _ columns: (TableColumns) -> (repeat TableColumn<Self, each V>),
        select selection: () -> some PartialSelectStatement<(repeat (each V).QueryOutput)>
    ) -> InsertSelect<Self> {
        var names: [String] = []
        for column in repeat each columns(Self.columns) { names.append(column.quotedName) }
        return InsertSelect(columns: names, select: selection().query)
    }

    /// Inserts the values `selection` returns into one column: `INSERT INTO "tag" ("name") SELECT …`.
    public static func insert<V: QueryRepresentable>(
        _ column: (TableColumns) -> TableColumn<Self, V>,
        select selection: () -> some PartialSelectStatement<V.QueryOutput>
    ) -> InsertSelect<Self> {
        InsertSelect(columns: [column(Self.columns).quotedName], select: selection().query)
    }
}
