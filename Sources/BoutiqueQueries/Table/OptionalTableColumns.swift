import BoutiqueSQLite

/// The column handles of a table that an outer join may leave unmatched: each column reads as
/// optional, as the joined row does.
///
/// A left join's other side (and the tables a right or full join keeps unmatched) hands its closures
/// these handles, so `$1.name` is a `String?` column and a row without a match reads `nil` from it:
///
/// ```swift
/// enum Parent: AliasName {}
///
/// Category
///     .leftJoin(Category.as(Parent.self).all) { $0.parentID.eq($1.id) }
///     .select { ($0.name, $1.name) }               // Select<_, (String, String?)>
/// ```
///
/// The join's `on` closure still receives the table's own handles. A column that is optional already
/// stays singly optional (`$1.priority` is an `Int?` column); a group of columns becomes an
/// ``OptionalColumnGroup``. The handles together read the whole row as optional
/// (`select { ($0, $1) }` reads `(Reminder, RemindersList?)`).
@dynamicMemberLookup
public struct OptionalTableColumns<Base: TableDefinition>: QueryExpression, Sendable {
    /// The handles read the row, or `nil` where the join found none.
    public typealias QueryValue = OptionalTableColumns

    /// The table's own handles.
    public let base: Base

    /// The handles of `base`'s table, read as optional.
    @inlinable
    public init(_ base: Base) { self.base = base }

    /// Every column of the table, qualified by its name.
    public var queryFragment: QueryFragment { base.queryFragment }

    /// A column of the table, read as optional: `$1.name` is a `String?` column, `$1.priority` (an
    /// `Int?` column) stays one; a group of columns is an ``OptionalColumnGroup``.
    public subscript<Handle: NullableColumnHandle>(dynamicMember keyPath: KeyPath<Base, Handle>) -> Handle.Nullable {
        base[keyPath: keyPath].nullable
    }
}

/// A column handle that has a form reading NULL as `nil`, for the tables an outer join may leave
/// unmatched (``OptionalTableColumns``).
public protocol NullableColumnHandle {
    /// The handle on the same columns, read as optional.
    associatedtype Nullable
    /// The handle on the same columns, read as optional.
    var nullable: Nullable { get }
}

extension TableColumn: NullableColumnHandle {
    /// The column, read as optional (once).
    @inlinable
    public var nullable: TableColumn<Root, Value.NullableRepresentation> { TableColumn<Root, Value.NullableRepresentation>(name) }
}

extension ColumnGroup: NullableColumnHandle {
    /// The group, read as `nil` when all of its columns are NULL.
    @inlinable
    public var nullable: OptionalColumnGroup<Root, Group> { OptionalColumnGroup(name) }
}

extension SQLExpression: NullableColumnHandle where QueryValue: QueryRepresentable {
    /// The expression, read as optional (once): a handle computed from the table's columns, as
    /// `json_each`'s `key` and `value` are.
    public var nullable: SQLExpression<QueryValue.NullableRepresentation> { SQLExpression<QueryValue.NullableRepresentation>(queryFragment) }
}

extension OptionalColumnGroup: NullableColumnHandle {
    /// The group, optional already.
    @inlinable
    public var nullable: OptionalColumnGroup { self }
}

extension OptionalTableColumns: QueryRepresentable {
    /// The row, or `nil` when every one of its columns is NULL (no row matched).
    public typealias QueryOutput = Base.Root?

    /// Reads the table's columns: `nil` when they are all NULL.
    public static func decode(from decoder: inout RowDecoder) throws(BoutiqueError) -> Base.Root? {
        try Base.Root.decodeJoined(from: &decoder)
    }

    /// The first column's value, as the table's own handles encode a row (`NULL` for `nil`).
    public static func encode(_ output: Base.Root?) -> DatabaseValue {
        guard let output else { return .null }
        return Base.Root.encode(output)
    }

    /// A row is not stored in one column.
    public static var sqlType: SQLType { .any }

    /// `nil` is a row of NULLs.
    public static var isNullable: Bool { true }
}

extension OptionalTableColumns where Base: PrimaryKeyedTableDefinition {
    /// `count(key)`: the number of the table's rows in the group, counted by primary key, so the
    /// missing row of a left join is not counted.
    public func count(
        distinct: Bool = false, filter: (some QueryExpression<Bool>)? = Bool?.none
    ) -> SQLExpression<Int> {
        base.count(distinct: distinct, filter: filter)
    }
}

// The handles' boolean columns read as `Bool?`, so the table's aggregates also take such a column
// as their filter (`$1.count(filter: $1.isDone)`), which SQLite reads as false where it is NULL.
extension OptionalTableColumns where Base: PrimaryKeyedTableDefinition {
    /// `count(key) FILTER (WHERE condition)` with a condition on the optional columns.
    public func count(distinct: Bool = false, filter: some QueryExpression<Bool?>) -> SQLExpression<Int> {
        SQLExpression(AggregateCall.render(
            "count", distinct: distinct, [base.primaryKey.queryFragment], filter: filter.queryFragment))
    }

    /// `json_group_array(json_object(…)) FILTER (WHERE …)` of the rows whose primary key is not NULL
    /// and for which the condition on the optional columns holds.
    public func jsonGroupArray(
        distinct: Bool = false, filter: some QueryExpression<Bool?>
    ) -> SQLExpression<JSONRepresentation<[Base.Root]>> where Base.Root: Codable {
        SQLExpression(AggregateCall.render(
            "json_group_array", distinct: distinct, [base.jsonObject().queryFragment],
            filter: JSONObjectRendering.presentRows(base.primaryKey, filter.queryFragment)))
    }
}

extension OptionalTableColumns where Base.Root: Codable {
    /// `json_object(…)` of the row's columns, as the table's own handles write it.
    public func jsonObject() -> SQLExpression<JSONRepresentation<Base.Root>> { base.jsonObject() }

    /// `json_group_array(json_object(…))`: the group's rows as one JSON array.
    public func jsonGroupArray(
        distinct: Bool = false, filter: (some QueryExpression<Bool>)? = Bool?.none
    ) -> SQLExpression<JSONRepresentation<[Base.Root]>> {
        base.jsonGroupArray(distinct: distinct, filter: filter)
    }

    /// `json_group_array(json_object(…) ORDER BY order)`. Needs SQLite 3.44 or later.
    public func jsonGroupArray(
        distinct: Bool = false, order: some QueryOrdering, filter: (some QueryExpression<Bool>)? = Bool?.none
    ) -> SQLExpression<JSONRepresentation<[Base.Root]>> {
        base.jsonGroupArray(distinct: distinct, order: order, filter: filter)
    }
}

extension OptionalTableColumns where Base: PrimaryKeyedTableDefinition, Base.Root: Codable {
    /// `json_group_array(json_object(…))` of the rows whose primary key is not NULL: a left join's
    /// missing row is left out, so a group without rows reads `[]`.
    public func jsonGroupArray(
        distinct: Bool = false, filter: (some QueryExpression<Bool>)? = Bool?.none
    ) -> SQLExpression<JSONRepresentation<[Base.Root]>> {
        base.jsonGroupArray(distinct: distinct, filter: filter)
    }

    /// The rows whose primary key is not NULL, in `order`. Needs SQLite 3.44 or later.
    public func jsonGroupArray(
        distinct: Bool = false, order: some QueryOrdering, filter: (some QueryExpression<Bool>)? = Bool?.none
    ) -> SQLExpression<JSONRepresentation<[Base.Root]>> {
        base.jsonGroupArray(distinct: distinct, order: order, filter: filter)
    }
}
