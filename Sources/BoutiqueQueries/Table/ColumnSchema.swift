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
    }

    /// `true` when inserts and updates write the column (it is not generated).
    public var isWritable: Bool { generated == nil }
}

/// A generated column's expression and storage.
public enum GeneratedColumn: Hashable, Sendable {
    /// Computed when read; not stored.
    case virtual(String)
    /// Computed when written and stored.
    case stored(String)

    /// The SQL expression.
    public var expression: String {
        switch self {
        case .virtual(let expression), .stored(let expression): expression
        }
    }
}
