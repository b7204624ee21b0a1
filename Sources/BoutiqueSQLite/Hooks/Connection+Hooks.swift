import CSQLite

/// The kind of row change an update or preupdate hook reports.
public enum RowChangeKind: Sendable, Hashable {
    /// A row was inserted.
    case insert
    /// A row was updated.
    case update
    /// A row was deleted.
    case delete

    init?(operation: Int32) {
        switch operation {
        case SQLITE_INSERT: self = .insert
        case SQLITE_UPDATE: self = .update
        case SQLITE_DELETE: self = .delete
        default: return nil
        }
    }
}

/// A row change reported by the update hook, after it happened.
public struct UpdateEvent: Sendable, Hashable {
    /// Insert, update or delete.
    public var kind: RowChangeKind
    /// The database the table is in (`main`, `temp`, or an attached name).
    public var databaseName: String
    /// The changed table.
    public var tableName: String
    /// The rowid of the changed row.
    public var rowID: Int64
}

extension Connection {
    /// Calls `hook` for every row inserted, updated or deleted in a rowid table (`sqlite3_update_hook`).
    /// Pass `nil` to remove it. The hook must not use the connection.
    public func setUpdateHook(_ hook: ((UpdateEvent) -> Void)?) throws(SQLiteError) {
        let db = try requireHandle()
        guard let hook else {
            sqlite3_update_hook(db, nil, nil)
            hooks.update = nil
            return
        }
        let box = UpdateHookBox(hook)
        hooks.update = box
        sqlite3_update_hook(db, { context, operation, database, table, rowID in
            guard let context, let kind = RowChangeKind(operation: operation) else { return }
            Unmanaged<UpdateHookBox>.fromOpaque(context).takeUnretainedValue()
                .report(kind: kind, databaseName: database, tableName: table, rowID: rowID)
        }, box.context)
    }

    /// Calls `hook` when a transaction is about to commit; returning `true` turns the commit into a
    /// rollback (`sqlite3_commit_hook`). Pass `nil` to remove it. The hook must not use the connection.
    public func setCommitHook(_ hook: (() -> Bool)?) throws(SQLiteError) {
        let db = try requireHandle()
        guard let hook else {
            sqlite3_commit_hook(db, nil, nil)
            hooks.commit = nil
            return
        }
        let box = HookBox(hook)
        hooks.commit = box
        sqlite3_commit_hook(db, { context in
            guard let callback = HookBox<() -> Bool>.from(context) else { return 0 }
            return callback() ? 1 : 0
        }, box.context)
    }

    /// Calls `hook` when a transaction rolls back (`sqlite3_rollback_hook`). Pass `nil` to remove it.
    public func setRollbackHook(_ hook: (() -> Void)?) throws(SQLiteError) {
        let db = try requireHandle()
        guard let hook else {
            sqlite3_rollback_hook(db, nil, nil)
            hooks.rollback = nil
            return
        }
        let box = HookBox(hook)
        hooks.rollback = box
        sqlite3_rollback_hook(db, { context in
            HookBox<() -> Void>.from(context)?()
        }, box.context)
    }

    /// Calls `handler` when a lock is held by another connection, with the number of earlier calls
    /// for this lock; returning `true` retries, `false` gives up with `SQLITE_BUSY`.
    /// Replaces the busy timeout. Pass `nil` to remove it.
    public func setBusyHandler(_ handler: ((Int) -> Bool)?) throws(SQLiteError) {
        let db = try requireHandle()
        guard let handler else {
            sqlite3_busy_handler(db, nil, nil)
            hooks.busy = nil
            return
        }
        let box = HookBox(handler)
        hooks.busy = box
        sqlite3_busy_handler(db, { context, count in
            guard let callback = HookBox<(Int) -> Bool>.from(context) else { return 0 }
            return callback(Int(count)) ? 1 : 0
        }, box.context)
    }
}
