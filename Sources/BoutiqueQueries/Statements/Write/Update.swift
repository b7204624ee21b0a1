import BoutiqueSQLite

/// An `UPDATE` of the rows a filter selects.
///
/// ```swift
/// try Note.update { $0.title = "Renamed"; $0.views += 1 }
///     .where { $0.id == noteID }
///     .execute(connection)
/// try Note.update(note).execute(connection)       // every column, by primary key
/// ```
public struct Update<Root: Table>: QueryStatement {
    public typealias Row = Void

    let assignments: [(column: String, value: QueryFragment)]
    var wheres: [QueryFragment]

    public var rowSource: String { Root.tableName }
    public func decodeRow(_ decoder: inout RowDecoder) throws(BoutiqueError) {}

    public var query: QueryFragment {
        var query = QueryFragment("UPDATE " + Root.quotedTableName + " SET ")
        query.append(assignments.map { QueryFragment(SQLIdentifier.quote($0.column) + " = ") + $0.value }
            .joined(separator: ", "))
        if !wheres.isEmpty {
            query.append(" WHERE ")
            query.append(SelectClauses.conjunction(wheres))
        }
        return query
    }

    /// Updates only the rows for which `predicate` holds; several `where` calls are ANDed.
    public func `where`(_ predicate: (Root.TableColumns) -> some QueryExpression<Bool>) -> Self {
        var copy = self
        copy.wheres.append(predicate(Root.columns).queryFragment)
        return copy
    }
}

/// The assignments of an `update { }` closure: `$0.title = "New"`, `$0.count += 1`.
///
/// Each column reads as an expression of its current value and accepts any expression of its type,
/// including a plain Swift value.
@dynamicMemberLookup
public struct Updates<Root: Table> {
    var assignments: [(column: String, value: QueryFragment)] = []

    public subscript<Value: QueryRepresentable>(
        dynamicMember keyPath: KeyPath<Root.TableColumns, TableColumn<Root, Value>>
    ) -> UpdateValue<Value> {
        get {
            let column = Root.columns[keyPath: keyPath]
            if let assigned = assignments.last(where: { $0.column == column.name }) {
                return UpdateValue(queryFragment: assigned.value)
            }
            return UpdateValue(queryFragment: QueryFragment(column.quotedName))
        }
        set {
            let name = Root.columns[keyPath: keyPath].name
            if let index = assignments.firstIndex(where: { $0.column == name }) {
                assignments[index].value = newValue.queryFragment
            } else {
                assignments.append((name, newValue.queryFragment))
            }
        }
    }
}

/// The value assigned to a column in an `update { }` closure: an expression, or a Swift value to bind.
public struct UpdateValue<QueryValue: QueryRepresentable>: QueryExpression {
    public var queryFragment: QueryFragment

    public init(queryFragment: QueryFragment) { self.queryFragment = queryFragment }

    /// A Swift value, bound.
    public init(_ value: QueryValue.QueryOutput) { queryFragment = QueryValue.bound(value) }

    /// Any expression of the column's type.
    public init(_ expression: some QueryExpression<QueryValue>) { queryFragment = expression.queryFragment }
}

extension UpdateValue: ExpressibleByUnicodeScalarLiteral, ExpressibleByExtendedGraphemeClusterLiteral,
    ExpressibleByStringLiteral where QueryValue.QueryOutput: ExpressibleByStringLiteral, QueryValue.QueryOutput.StringLiteralType == String {
    public init(stringLiteral value: String) { self.init(QueryValue.QueryOutput(stringLiteral: value)) }
    public init(unicodeScalarLiteral value: String) { self.init(QueryValue.QueryOutput(stringLiteral: value)) }
    public init(extendedGraphemeClusterLiteral value: String) { self.init(QueryValue.QueryOutput(stringLiteral: value)) }
}

extension UpdateValue: ExpressibleByIntegerLiteral
where QueryValue.QueryOutput: ExpressibleByIntegerLiteral, QueryValue.QueryOutput.IntegerLiteralType == Int {
    public init(integerLiteral value: Int) { self.init(QueryValue.QueryOutput(integerLiteral: value)) }
}

extension UpdateValue: ExpressibleByFloatLiteral
where QueryValue.QueryOutput: ExpressibleByFloatLiteral, QueryValue.QueryOutput.FloatLiteralType == Double {
    public init(floatLiteral value: Double) { self.init(QueryValue.QueryOutput(floatLiteral: value)) }
}

extension UpdateValue: ExpressibleByBooleanLiteral
where QueryValue.QueryOutput: ExpressibleByBooleanLiteral, QueryValue.QueryOutput.BooleanLiteralType == Bool {
    public init(booleanLiteral value: Bool) { self.init(QueryValue.QueryOutput(booleanLiteral: value)) }
}

extension UpdateValue: ExpressibleByNilLiteral where QueryValue.QueryOutput: ExpressibleByNilLiteral {
    public init(nilLiteral: ()) { self.init(QueryValue.QueryOutput(nilLiteral: ())) }
}

extension UpdateValue where QueryValue: QueryNumeric {
    public static func += (lhs: inout Self, rhs: QueryValue.QueryOutput) { lhs = UpdateValue(lhs + rhs) }
    public static func -= (lhs: inout Self, rhs: QueryValue.QueryOutput) { lhs = UpdateValue(lhs - rhs) }
    public static func *= (lhs: inout Self, rhs: QueryValue.QueryOutput) { lhs = UpdateValue(lhs * rhs) }
}

extension UpdateValue where QueryValue == Bool {
    /// Flips the column: `$0.isDone.toggle()`.
    public mutating func toggle() { self = UpdateValue(!self) }
}

extension Table {
    /// Updates the columns the closure assigns, on every row (narrow it with `where`).
    public static func update(_ assign: (inout Updates<Self>) -> Void) -> Update<Self> {
        var updates = Updates<Self>()
        assign(&updates)
        return Update(assignments: updates.assignments, wheres: [])
    }
}

extension PrimaryKeyedTable {
    /// Writes every writable column of `row` to the row with its primary key.
    public static func update(_ row: Self) -> Update<Self> {
        var encoder = RowEncoder()
        row.encodeColumns(into: &encoder)
        let names = Insert<Self>.insertColumns
        let key = columns.primaryKey.name
        var assignments: [(column: String, value: QueryFragment)] = []
        var keyValue = DatabaseValue.null
        for (name, value) in zip(names, encoder.values) {
            if name == key { keyValue = value } else { assignments.append((name, QueryFragment(binding: value))) }
        }
        let condition = QueryFragment(columns.primaryKey.queryFragment.sql + " = ?", bindings: [keyValue])
        return Update(assignments: assignments, wheres: [condition])
    }
}

extension Select where Columns: TableDefinition, Output == Columns.Root {
    /// Updates the rows this select's filter picks.
    public func update(_ assign: (inout Updates<Output>) -> Void) -> Update<Output> {
        var updates = Updates<Output>()
        assign(&updates)
        return Update(assignments: updates.assignments, wheres: clauses.wheres)
    }
}
