extension Table {
    /// A `CREATE TEMPORARY TRIGGER` whose statements run after each row `operation` changes.
    ///
    /// ```swift
    /// try Reminder.createTemporaryTrigger(after: .insert { new in
    ///     RemindersList.update { $0.reminderCount += 1 }.where { $0.id.eq(new.listID) }
    /// }).execute(connection)
    /// ```
    ///
    /// - Parameters:
    ///   - name: The trigger's name; by default one made of the timing, event, table and the place in
    ///     the source that calls this (a function that wraps this call should take `fileID`, `line` and
    ///     `column` itself and pass them on, so that each of its triggers gets its own name).
    ///   - ifNotExists: Do nothing when a trigger of that name exists.
    ///   - operation: The change, the statements, and an optional `WHEN` condition.
    public static func createTemporaryTrigger(
        _ name: String? = nil,
        ifNotExists: Bool = false,
        after operation: TemporaryTrigger<Self>.Operation,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        column: UInt = #column
    ) -> TemporaryTrigger<Self> {
        TemporaryTrigger(
            name: name, ifNotExists: ifNotExists, timing: .after, operation: operation, fileID: fileID, line: line,
            column: column)
    }

    /// A `CREATE TEMPORARY TRIGGER` whose statements run before each row `operation` changes.
    ///
    /// SQLite advises against `BEFORE` triggers that change the row being changed: the result is
    /// undefined. Prefer ``createTemporaryTrigger(_:ifNotExists:after:fileID:line:column:)``.
    public static func createTemporaryTrigger(
        _ name: String? = nil,
        ifNotExists: Bool = false,
        before operation: TemporaryTrigger<Self>.Operation,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        column: UInt = #column
    ) -> TemporaryTrigger<Self> {
        TemporaryTrigger(
            name: name, ifNotExists: ifNotExists, timing: .before, operation: operation, fileID: fileID, line: line,
            column: column)
    }

    /// A `CREATE TEMPORARY TRIGGER` on a view whose statements run instead of each insert, update or
    /// delete of a view row, which SQLite cannot write by itself: what makes a view writable.
    ///
    /// ```swift
    /// ReminderWithList.createTemporaryTrigger(insteadOf: .insert { new in
    ///     Reminder.insert { ($0.title, $0.listID) } values: {
    ///         (new.reminderTitle, RemindersList.select(\.id).where { $0.name.eq(new.listName) })
    ///     }
    /// })
    /// ```
    public static func createTemporaryTrigger(
        _ name: String? = nil,
        ifNotExists: Bool = false,
        insteadOf operation: TemporaryTrigger<Self>.Operation,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        column: UInt = #column
    ) -> TemporaryTrigger<Self> {
        TemporaryTrigger(
            name: name, ifNotExists: ifNotExists, timing: .insteadOf, operation: operation, fileID: fileID,
            line: line, column: column)
    }
}
