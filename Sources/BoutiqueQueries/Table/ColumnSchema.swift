import BoutiqueSQLite

/// What the schema of one column says: its name, SQL type, nullability, key, default and generation.
///
/// `@Table` generates one per stored property; ``BoutiqueTable(strict:withoutRowID:)`` turns them into `CREATE TABLE`.
public struct ColumnSchema: Hashable, Sendable {
    /// The column's SQL name.
    public var name: String
    /// The declared SQL type.
    public var sqlType: SQLType
    /// `true` when the column may hold NULL (an optional property).
    public var isNullable: Bool
    /// `true` for the primary key column.
    public var isPrimaryKey: Bool
    /// The literal default from the property's initializer, when it is a literal.
    public var defaultValue: DatabaseValue?
    /// How the column is computed, for generated columns (read-only: never inserted or updated).
    public var generated: GeneratedColumn?
    /// How the column's value goes into the row's JSON object (``TableDefinition/jsonObject()``).
    public var jsonValueForm: JSONValueForm
    /// For a field that groups several columns (a `@Selection` struct), those columns: the table holds
    /// them in its place (``flattened(_:)``).
    public var groupedColumns: [ColumnSchema]?

    /// A column's schema, field by field.
    public init(
        name: String, sqlType: SQLType, isNullable: Bool, isPrimaryKey: Bool = false,
        defaultValue: DatabaseValue? = nil, generated: GeneratedColumn? = nil, jsonValueForm: JSONValueForm? = nil
    ) {
        self.name = name
        self.sqlType = sqlType
        self.isNullable = isNullable
        self.isPrimaryKey = isPrimaryKey
        self.defaultValue = defaultValue
        self.generated = generated
        self.jsonValueForm = jsonValueForm ?? JSONValueForm(defaultFor: sqlType)
    }

    /// The schema of a column stored with `representation`.
    public init<R: QueryRepresentable>(
        _ name: String, as representation: R.Type, primaryKey: Bool = false, defaultValue: DatabaseValue? = nil,
        generated: GeneratedColumn? = nil
    ) {
        self.init(
            name: name, sqlType: R.sqlType, isNullable: R.isNullable, isPrimaryKey: primaryKey,
            defaultValue: defaultValue, generated: generated, jsonValueForm: R.jsonValueForm)
        groupedColumns = R.groupedColumns
    }

    /// `columns` with each group of columns replaced by the columns it groups, in order: a table's
    /// columns as SQLite has them.
    ///
    /// ```swift
    /// @Selection struct Timestamps { var createdAt: Date; var updatedAt: Date? }
    /// ColumnSchema.flattened([ColumnSchema("id", as: Int.self), ColumnSchema("timestamps", as: Timestamps.self)])
    ///     .map(\.name)   // ["id", "createdAt", "updatedAt"]
    /// ```
    public static func flattened(_ columns: [ColumnSchema]) -> [ColumnSchema] {
        guard columns.contains(where: { $0.groupedColumns != nil }) else { return columns }
        return columns.flatMap { $0.groupedColumns.map(flattened) ?? [$0] }
    }

    /// `true` when inserts and updates write the column (it is not generated).
    public var isWritable: Bool { generated == nil }
}
