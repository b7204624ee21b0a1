import CSQLite

/// A Swift closure kept alive while SQLite holds a pointer to it as a hook's context.
final class HookBox<Callback> {
    let callback: Callback
    init(_ callback: Callback) { self.callback = callback }
    var context: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }
    static func from(_ context: UnsafeMutableRawPointer?) -> Callback? {
        guard let context else { return nil }
        return Unmanaged<HookBox<Callback>>.fromOpaque(context).takeUnretainedValue().callback
    }
}

/// The update hook's closure, with the names of the last change kept (see ``NameCache``).
final class UpdateHookBox {
    let callback: (UpdateEvent) -> Void
    @exclusivity(unchecked) private var lastDatabaseName = NameCache()
    @exclusivity(unchecked) private var lastTableName = NameCache()

    init(_ callback: @escaping (UpdateEvent) -> Void) { self.callback = callback }

    var context: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    func report(kind: RowChangeKind, databaseName: UnsafePointer<CChar>?, tableName: UnsafePointer<CChar>?, rowID: Int64) {
        callback(UpdateEvent(
            kind: kind, databaseName: lastDatabaseName.string(for: databaseName),
            tableName: lastTableName.string(for: tableName), rowID: rowID))
    }
}

/// The closures installed on a connection. The connection owns them, so SQLite's context pointers stay
/// valid for as long as the hooks are installed.
struct HookBoxes {
    var authorizer: HookBox<(AuthorizerEvent) -> AuthorizerDecision>?
    var update: UpdateHookBox?
    var preupdate: PreupdateHookBox?
    var commit: HookBox<() -> Bool>?
    var rollback: HookBox<() -> Void>?
    var busy: HookBox<(Int) -> Bool>?
    var statementStart: StatementStartBox?
    var progress: HookBox<() -> Bool>?

    /// Removes every hook from `db` before it closes.
    mutating func uninstall(from db: OpaquePointer) {
        if authorizer != nil { sqlite3_set_authorizer(db, nil, nil) }
        if update != nil { sqlite3_update_hook(db, nil, nil) }
        if preupdate != nil { sqlite3_preupdate_hook(db, nil, nil) }
        if commit != nil { sqlite3_commit_hook(db, nil, nil) }
        if rollback != nil { sqlite3_rollback_hook(db, nil, nil) }
        if busy != nil { sqlite3_busy_handler(db, nil, nil) }
        if statementStart != nil { sqlite3_trace_v2(db, 0, nil, nil) }
        if progress != nil { sqlite3_progress_handler(db, 0, nil, nil) }
        self = HookBoxes()
    }
}
