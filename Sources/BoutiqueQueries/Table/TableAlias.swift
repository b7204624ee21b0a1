import BoutiqueSQLite

/// The name a table goes by in a query that reads it twice: a self-join's other side.
///
/// ```swift
/// enum Parent: AliasName {}
///
/// Reminder
///     .join(Reminder.as(Parent.self).all) { $0.parentID == $1.id }
///     .select { ($0.title, $1.title) }
/// // SELECT "reminder"."title", "parent"."title"
/// // FROM "reminder" JOIN "reminder" AS "parent" ON ("reminder"."parentID" = "parent"."id")
/// ```
///
/// The alias is the type's name with its first letter lowercased, as `@Table` names tables; give
/// `aliasName` a value to choose another.
public protocol AliasName {
    /// The name the table goes by: `"parent"` for `enum Parent: AliasName {}`.
    static var aliasName: String { get }
}

extension AliasName {
    /// The type's name with its first letter lowercased.
    public static var aliasName: String {
        let name = String(describing: Self.self)
        return name.prefix(1).lowercased() + name.dropFirst()
    }
}

extension Table {
    /// The table under another name, for a query that reads it twice: `Reminder.as(Parent.self).all`.
    public static func `as`<Name: AliasName>(_ name: Name.Type) -> TableAlias<Self, Name>.Type {
        TableAlias<Self, Name>.self
    }
}

/// A table read under another name (``AliasName``): its columns are the table's, qualified by the
/// alias, and its rows are the table's rows, whose properties it reads through (`row.title`).
@dynamicMemberLookup
public struct TableAlias<Base: Table, Name: AliasName>: Table {
    /// The row, as the table reads it.
    public var base: Base

    /// The aliased row of `base`.
    public init(_ base: Base) { self.base = base }

    /// A property of the row: `parent.title`.
    public subscript<Value>(dynamicMember keyPath: KeyPath<Base, Value>) -> Value { base[keyPath: keyPath] }

    /// The alias.
    public static var tableName: String { Name.aliasName }

    /// `"table" AS "alias"`.
    public static var fromClause: String { Base.quotedTableName + " AS " + quotedTableName }

    /// The table's columns, qualified by the alias.
    public static var columns: TableColumns { TableColumns() }

    /// Reads the table's row.
    public init(decoder: inout RowDecoder) throws(BoutiqueError) { base = try Base(decoder: &decoder) }

    /// The table's values.
    public func encodeColumns(into encoder: inout RowEncoder) { base.encodeColumns(into: &encoder) }

    /// The table's column handles under the alias: `$1.title` renders `"parent"."title"`.
    @dynamicMemberLookup
    public struct TableColumns: TableDefinition {
        public typealias Root = TableAlias

        /// The table's columns.
        public static var allColumns: [ColumnSchema] { Base.TableColumns.allColumns }

        /// The handles.
        public init() {}

        /// The table's column of that name, qualified by the alias.
        public subscript<Value>(
            dynamicMember keyPath: KeyPath<Base.TableColumns, TableColumn<Base, Value>>
        ) -> TableColumn<TableAlias, Value> {
            TableColumn(Base.columns[keyPath: keyPath].name)
        }
    }
}

extension TableAlias: Sendable where Base: Sendable {}
extension TableAlias: Equatable where Base: Equatable {}
extension TableAlias: Hashable where Base: Hashable {}
