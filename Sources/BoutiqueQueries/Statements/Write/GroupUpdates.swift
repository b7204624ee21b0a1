/// The columns of a group in an `update { }` closure: a `@Selection` struct stored as one field of
/// the table, whose fields are columns of the table (named as the fields are).
///
/// ```swift
/// RemindersList.update {
///     $0.name = "Home"
///     $0.timestamps.updatedAt = now                    // SET "name" = ?, "updatedAt" = ?
/// }
/// ```
///
/// Each field takes what the table's own columns take: an expression of its type, a Swift value, or
/// `nil` for an optional one. The assignments go into the table's `SET` list.
@dynamicMemberLookup
public struct GroupUpdates<Root: Table, Group: QuerySelection> {
    var updates: Updates<Root>

    /// The table's column that holds the group's field.
    private func column<Value>(_ keyPath: KeyPath<Group.TableColumns, TableColumn<Group, Value>>) -> TableColumn<Root, Value> {
        TableColumn<Root, Value>(Group.columns[keyPath: keyPath].name)
    }

    /// The field as an expression, read and assigned: `$0.timestamps.createdAt = $0.timestamps.createdAt`.
    public subscript<Value: QueryRepresentable>(
        dynamicMember keyPath: KeyPath<Group.TableColumns, TableColumn<Group, Value>>
    ) -> SQLExpression<Value> {
        get { SQLExpression<Value>(updates.current(column(keyPath))) }
        set { updates.assign(column(keyPath).name, newValue.queryFragment) }
    }

    /// The field assigned any expression of its type, a Swift value included (bound).
    @_disfavoredOverload
    public subscript<Value: QueryRepresentable>(
        dynamicMember keyPath: KeyPath<Group.TableColumns, TableColumn<Group, Value>>
    ) -> any QueryExpression<Value> {
        get { SQLExpression<Value>(updates.current(column(keyPath))) }
        set { updates.assign(column(keyPath).name, newValue.queryFragment) }
    }

    /// An optional field set to a Swift value: `nil`, or a value of the wrapped type, bound. It only
    /// assigns, as the table's own optional columns do.
    @_disfavoredOverload
    public subscript<Wrapped: QueryRepresentable>(
        dynamicMember keyPath: KeyPath<Group.TableColumns, TableColumn<Group, Wrapped?>>
    ) -> Wrapped.QueryOutput? {
        @available(*, unavailable, message: "a column has no Swift value to read here; use it as an expression")
        get { nil }
        set { updates.assign(column(keyPath).name, QueryFragment(binding: Wrapped?.encode(newValue))) }
    }

    /// An optional field set to an expression of the wrapped type. It only assigns.
    @_disfavoredOverload
    public subscript<Wrapped: QueryRepresentable>(
        dynamicMember keyPath: KeyPath<Group.TableColumns, TableColumn<Group, Wrapped?>>
    ) -> SQLExpression<Wrapped> {
        @available(*, unavailable, message: "read an optional column as an optional expression")
        get { SQLExpression<Wrapped>(updates.current(column(keyPath))) }
        set { updates.assign(column(keyPath).name, newValue.queryFragment) }
    }
}
