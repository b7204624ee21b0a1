import CSQLite

/// One action SQLite asks the authorizer about while compiling a statement.
public struct AuthorizerEvent: Sendable, Hashable {
    /// The action code (`SQLITE_READ`, `SQLITE_INSERT`, …); see the named constants on ``AuthorizerEvent``.
    public var actionCode: Int32
    /// The action's first detail: the table for reads, inserts, updates, deletes and table DDL.
    public var parameter1: String?
    /// The action's second detail: the column for reads and updates.
    public var parameter2: String?
    /// The database (`main`, `temp`, or an attached name).
    public var databaseName: String?
    /// The innermost trigger or view that caused the access, if any.
    public var triggerOrView: String?

    /// `SQLITE_CREATE_INDEX`: `parameter1` is the index, `parameter2` its table.
    public static let createIndex = SQLITE_CREATE_INDEX
    /// `SQLITE_CREATE_TABLE`: `parameter1` is the table.
    public static let createTable = SQLITE_CREATE_TABLE
    /// `SQLITE_DELETE`: `parameter1` is the table rows are deleted from.
    public static let delete = SQLITE_DELETE
    /// `SQLITE_DROP_TABLE`: `parameter1` is the table.
    public static let dropTable = SQLITE_DROP_TABLE
    /// `SQLITE_INSERT`: `parameter1` is the table rows are inserted into.
    public static let insert = SQLITE_INSERT
    /// `SQLITE_PRAGMA`: `parameter1` is the pragma, `parameter2` its argument.
    public static let pragma = SQLITE_PRAGMA
    /// `SQLITE_READ`: `parameter1` is the table, `parameter2` the column read.
    public static let read = SQLITE_READ
    /// `SQLITE_SELECT`: a `SELECT` statement is compiled.
    public static let select = SQLITE_SELECT
    /// `SQLITE_TRANSACTION`: `parameter1` is the operation (`BEGIN`, `COMMIT`, `ROLLBACK`).
    public static let transaction = SQLITE_TRANSACTION
    /// `SQLITE_UPDATE`: `parameter1` is the table, `parameter2` the column assigned.
    public static let update = SQLITE_UPDATE
    /// `SQLITE_ATTACH`: `parameter1` is the file name.
    public static let attach = SQLITE_ATTACH
    /// `SQLITE_ALTER_TABLE`: `parameter1` is the database, `parameter2` the table.
    public static let alterTable = SQLITE_ALTER_TABLE
    /// `SQLITE_FUNCTION`: `parameter2` is the function called.
    public static let function = SQLITE_FUNCTION
}

/// What the authorizer answers.
public enum AuthorizerDecision: Sendable {
    /// Allow the action.
    case allow
    /// Fail the statement with `SQLITE_AUTH`.
    case deny
    /// Allow the statement but treat this column read as NULL (or skip this `DELETE` optimisation).
    case ignore

    var code: Int32 {
        switch self {
        case .allow: SQLITE_OK
        case .deny: SQLITE_DENY
        case .ignore: SQLITE_IGNORE
        }
    }
}

extension Connection {
    /// Calls `authorizer` for every action a statement being compiled will take (`sqlite3_set_authorizer`).
    /// It is how a caller learns which tables a query reads. Pass `nil` to remove it.
    /// The authorizer must not use the connection.
    public func setAuthorizer(_ authorizer: ((AuthorizerEvent) -> AuthorizerDecision)?) throws(SQLiteError) {
        let db = try requireHandle()
        guard let authorizer else {
            sqlite3_set_authorizer(db, nil, nil)
            hooks.authorizer = nil
            return
        }
        let box = HookBox(authorizer)
        hooks.authorizer = box
        let rc = sqlite3_set_authorizer(db, { context, action, first, second, database, trigger in
            guard let callback = HookBox<(AuthorizerEvent) -> AuthorizerDecision>.from(context) else {
                return SQLITE_OK
            }
            let event = AuthorizerEvent(
                actionCode: action, parameter1: first.map { String(cString: $0) },
                parameter2: second.map { String(cString: $0) }, databaseName: database.map { String(cString: $0) },
                triggerOrView: trigger.map { String(cString: $0) })
            return callback(event).code
        }, box.context)
        guard rc == SQLITE_OK else { throw SQLiteError(db: db, rc: rc, sql: nil) }
    }
}
