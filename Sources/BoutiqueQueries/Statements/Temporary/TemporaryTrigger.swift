import BoutiqueSQLite

/// A `CREATE TEMPORARY TRIGGER` statement: statements SQLite runs for each row an insert, update or
/// delete on `On` touches, before it, after it, or instead of it (on a view).
///
/// ```swift
/// try Reminder.createTemporaryTrigger(after: .update(touch: \.updatedAt)).execute(connection)
/// // CREATE TEMPORARY TRIGGER "after_update_on_reminder@…" AFTER UPDATE ON "reminder" FOR EACH ROW
/// // BEGIN UPDATE "reminder" SET "updatedAt" = … WHERE ("reminder"."rowid" = "new"."rowid"); END
/// ```
///
/// A trigger is stored as SQL text and cannot take parameters, so the values its statements bind are
/// written into the text as literals (``QueryFragment/inlined()``): quoted and escaped, never spliced.
///
/// A temporary trigger lives on the connection that created it, until that connection closes or the
/// trigger is dropped: create it on every connection that needs it, with
/// `options.prepareDatabase { conn in try conn.execute(trigger) }`. Its writes are the connection's
/// writes: they are part of the statement that fired them, and of the change log.
public struct TemporaryTrigger<On: Table>: QueryStatement, Sendable {
    public typealias Row = Void

    /// When the trigger's statements run, relative to the change that fires it.
    enum Timing: String, Sendable {
        case before = "BEFORE"
        case after = "AFTER"
        case insteadOf = "INSTEAD OF"

        /// The word a default trigger name starts with.
        var nameWord: String {
            switch self {
            case .before: "before"
            case .after: "after"
            case .insteadOf: "instead_of"
            }
        }
    }

    /// The trigger's name: the one given, or one made of the timing, event, table and the place in the
    /// source that created it (`after_insert_on_reminder@App/Triggers.swift:12:30`).
    public let name: String
    let ifNotExists: Bool
    let timing: Timing
    let operation: Operation

    init(
        name: String?, ifNotExists: Bool, timing: Timing, operation: Operation,
        fileID: StaticString, line: UInt, column: UInt
    ) {
        self.name = name ?? "\(timing.nameWord)_\(operation.event.nameWord)_on_\(On.tableName)@\(fileID):\(line):\(column)"
        self.ifNotExists = ifNotExists
        self.timing = timing
        self.operation = operation
    }

    /// `CREATE TEMPORARY TRIGGER … END`, with every value written in as a literal.
    public var query: QueryFragment {
        var query = QueryFragment("CREATE TEMPORARY TRIGGER " + (ifNotExists ? "IF NOT EXISTS " : ""))
        query.append(SQLIdentifier.quote(name) + " " + timing.rawValue + " ")
        query.append(operation.fragment(on: On.quotedTableName))
        return query.inlined()
    }

    public var rowSource: String { On.tableName }

    public func decodeRow(_ decoder: inout RowDecoder) throws(BoutiqueError) {}

    /// The statement that removes this trigger: `DROP TRIGGER "name"`; with `ifExists`, no error when
    /// there is none.
    public func drop(ifExists: Bool = false) -> DropStatement {
        DropStatement(kind: "TRIGGER", name: name, ifExists: ifExists)
    }
}
