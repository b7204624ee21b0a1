/// One evaluation of an aggregate SQL function: fed the arguments of each row of a group, then asked
/// for the group's result.
///
/// ```swift
/// struct Longest: SQLAggregation {
///     var longest: String?
///     mutating func step(_ arguments: Statement) throws {
///         let text = try arguments.string(at: 0)
///         if text.count > longest?.count ?? -1 { longest = text }
///     }
///     func finish() throws -> DatabaseValue { longest.map(DatabaseValue.text) ?? .null }
/// }
/// try connection.createAggregateFunction("longest", argumentCount: 1) { Longest() }
/// ```
///
/// SQLite makes a new one for every group of every statement that calls the function, so an
/// aggregation keeps only its own group's state.
public protocol SQLAggregation {
    /// Takes one row's arguments: the statement's current row holds argument 1 in column 0, and so on.
    /// The statement is valid only during the call. An error fails the calling statement.
    mutating func step(_ arguments: Statement) throws

    /// The group's result, after every row was stepped (none, for an empty group). An error fails the
    /// calling statement.
    func finish() throws -> DatabaseValue
}
