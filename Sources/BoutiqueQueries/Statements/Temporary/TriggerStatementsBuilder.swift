/// Builds the statements of a trigger's body: inserts, updates, deletes and selects, one per line,
/// with `if` and `for` over them.
///
/// ```swift
/// RemindersList.createTemporaryTrigger(after: .delete { old in
///     Reminder.where { $0.listID.eq(old.id) }.delete()
///     Values(1)
/// })
/// ```
///
/// Each statement is kept as its SQL and bindings; the trigger writes the values into its text when it
/// is rendered (see ``QueryFragment/inlined()``).
@resultBuilder
public enum TriggerStatementsBuilder {
    /// A builder statement: `insert`, `update`, `delete`, a select or `Values`.
    public static func buildExpression(_ statement: some QueryStatement) -> [QueryFragment] {
        [statement.query]
    }

    /// A statement written as SQL text: `#sql("SELECT notify(\(new.id))")`.
    public static func buildExpression<Output>(_ statement: SQLQuery<Output>) -> [QueryFragment] {
        [statement.queryFragment]
    }

    /// The statements of every line, in order.
    public static func buildBlock(_ components: [QueryFragment]...) -> [QueryFragment] {
        components.flatMap { $0 }
    }

    /// The statements of every iteration of a `for` loop.
    public static func buildArray(_ components: [[QueryFragment]]) -> [QueryFragment] {
        components.flatMap { $0 }
    }

    /// The statements of an `if` without `else`; none when the condition is false.
    public static func buildOptional(_ component: [QueryFragment]?) -> [QueryFragment] { component ?? [] }

    /// The statements of an `if` branch.
    public static func buildEither(first component: [QueryFragment]) -> [QueryFragment] { component }

    /// The statements of an `else` branch.
    public static func buildEither(second component: [QueryFragment]) -> [QueryFragment] { component }
}
