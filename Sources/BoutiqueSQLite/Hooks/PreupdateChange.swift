import CSQLite

/// A row change seen by the preupdate hook, before it is applied: the old and new values of the row.
///
/// Valid only during the hook call. Outside it every read throws `.misuse` and ``columnCount`` is 0,
/// also after the connection has closed.
public struct PreupdateChange {
    /// Tells whether this change is the one being reported right now.
    let scope: PreupdateScope
    let call: UInt64

    /// Insert, update or delete.
    public let kind: RowChangeKind
    /// `main`, `temp`, or an attached database's name.
    public let databaseName: String
    /// The changed table.
    public let tableName: String
    /// The rowid before the change (the new rowid for an insert).
    public let oldRowID: Int64
    /// The rowid after the change (the old rowid for a delete).
    public let newRowID: Int64

    /// The connection, while the hook call that reported this change is running.
    var db: OpaquePointer? { scope.call == call ? scope.db : nil }

    private func requireDB() throws(SQLiteError) -> OpaquePointer {
        guard let db else {
            throw SQLiteError(.misuse, message: "a preupdate change was read after its hook call returned")
        }
        return db
    }

    /// Number of columns in the changed row.
    public var columnCount: Int32 {
        guard let db else { return 0 }
        return sqlite3_preupdate_count(db)
    }

    /// 0 for a change made by the statement itself, 1 for one made by a trigger it fired, and so on.
    public var triggerDepth: Int32 {
        guard let db else { return 0 }
        return sqlite3_preupdate_depth(db)
    }

    /// The value of column `index` before an update or delete.
    public func oldValue(at index: Int32) throws(SQLiteError) -> DatabaseValue {
        let db = try requireDB()
        var value: OpaquePointer?
        let rc = sqlite3_preupdate_old(db, index, &value)
        guard rc == SQLITE_OK else { throw SQLiteError(db: db, rc: rc, sql: nil) }
        return try DatabaseValue(sqliteValue: value)
    }

    /// The value of column `index` after an insert or update.
    public func newValue(at index: Int32) throws(SQLiteError) -> DatabaseValue {
        let db = try requireDB()
        var value: OpaquePointer?
        let rc = sqlite3_preupdate_new(db, index, &value)
        guard rc == SQLITE_OK else { throw SQLiteError(db: db, rc: rc, sql: nil) }
        return try DatabaseValue(sqliteValue: value)
    }

    /// Every column's value before the change.
    public func oldRow() throws(SQLiteError) -> [DatabaseValue] {
        let db = try requireDB()
        return try (0..<sqlite3_preupdate_count(db)).map { (index) throws(SQLiteError) in try oldValue(at: index) }
    }

    /// Every column's value after the change.
    public func newRow() throws(SQLiteError) -> [DatabaseValue] {
        let db = try requireDB()
        return try (0..<sqlite3_preupdate_count(db)).map { (index) throws(SQLiteError) in try newValue(at: index) }
    }
}

/// The preupdate hook call in progress.
///
/// A ``PreupdateChange`` keeps this, not the bare `sqlite3*`, so that one kept past its hook call (or past
/// the connection's close) finds no connection instead of a dangling pointer. It is separate from the
/// hook's closure so that a change kept by that closure makes no reference cycle.
///
/// Its state is read and written on every row change, always on the connection's thread, so the
/// runtime's dynamic exclusivity checks (a measurable cost per change) are turned off for it.
final class PreupdateScope {
    /// Counts hook calls; a change answers only while its own call is the current one.
    @exclusivity(unchecked) var call: UInt64 = 0
    /// The connection during a hook call, `nil` between calls.
    @exclusivity(unchecked) var db: OpaquePointer?
}

/// The preupdate hook's closure, kept alive while SQLite holds a pointer to it.
final class PreupdateHookBox {
    let callback: (PreupdateChange) -> Void
    let scope = PreupdateScope()
    /// The names of the last change's database and table (see ``NameCache``).
    @exclusivity(unchecked) private var lastDatabaseName = NameCache()
    @exclusivity(unchecked) private var lastTableName = NameCache()

    init(_ callback: @escaping (PreupdateChange) -> Void) { self.callback = callback }

    var context: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    static func from(_ context: UnsafeMutableRawPointer?) -> PreupdateHookBox? {
        guard let context else { return nil }
        return Unmanaged<PreupdateHookBox>.fromOpaque(context).takeUnretainedValue()
    }

    func report(
        db: OpaquePointer, kind: RowChangeKind, databaseName: UnsafePointer<CChar>?, tableName: UnsafePointer<CChar>?,
        oldRowID: Int64, newRowID: Int64
    ) {
        scope.call &+= 1
        scope.db = db
        defer { scope.db = nil }
        callback(PreupdateChange(
            scope: scope, call: scope.call, kind: kind, databaseName: lastDatabaseName.string(for: databaseName),
            tableName: lastTableName.string(for: tableName), oldRowID: oldRowID, newRowID: newRowID))
    }
}

extension DatabaseValue {
    /// Copies an unprotected `sqlite3_value*`.
    init(sqliteValue value: OpaquePointer?) throws(SQLiteError) {
        guard let value else { self = .null; return }
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER: self = .integer(sqlite3_value_int64(value))
        case SQLITE_FLOAT: self = .real(sqlite3_value_double(value))
        case SQLITE_TEXT:
            let text = sqlite3_value_text(value)
            let count = Int(sqlite3_value_bytes(value))
            guard let text else { self = .text(""); return }
            guard let string = String(validating: UnsafeBufferPointer(start: text, count: count), as: UTF8.self) else {
                throw SQLiteError(.mismatch, message: "a changed value holds text that is not valid UTF-8")
            }
            self = .text(string)
        case SQLITE_BLOB:
            let base = sqlite3_value_blob(value)
            let count = Int(sqlite3_value_bytes(value))
            self = .blob(base.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? [])
        default: self = .null
        }
    }
}

extension Connection {
    /// Calls `hook` before each row of a rowid table is inserted, updated or deleted, with access to the
    /// old and new values (`sqlite3_preupdate_hook`). Pass `nil` to remove it.
    /// The hook must not use the connection, and must not keep the ``PreupdateChange``.
    public func setPreupdateHook(_ hook: ((PreupdateChange) -> Void)?) throws(SQLiteError) {
        let db = try requireHandle()
        guard let hook else {
            sqlite3_preupdate_hook(db, nil, nil)
            hooks.preupdate = nil
            return
        }
        let box = PreupdateHookBox(hook)
        hooks.preupdate = box
        sqlite3_preupdate_hook(db, { context, db, operation, database, table, oldRowID, newRowID in
            guard let box = PreupdateHookBox.from(context), let db, let kind = RowChangeKind(operation: operation)
            else { return }
            box.report(db: db, kind: kind, databaseName: database, tableName: table, oldRowID: oldRowID, newRowID: newRowID)
        }, box.context)
    }
}
