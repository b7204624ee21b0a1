import CSQLite

extension Connection {
    /// Calls `handler` about every `instructions` virtual-machine instructions while a statement runs on
    /// this connection (`sqlite3_progress_handler`); when it returns `true` the statement stops with
    /// `SQLITE_INTERRUPT`. Pass `nil` to remove it.
    ///
    /// ```swift
    /// let deadline = ContinuousClock.now + .milliseconds(5)
    /// try connection.setProgressHandler(every: 1_000) { ContinuousClock.now > deadline }
    /// defer { try? connection.setProgressHandler(every: 0, nil) }
    /// ```
    ///
    /// It is how a caller bounds the time a statement may take, whatever one step of it costs. The
    /// handler runs on the connection's thread, inside `sqlite3_step`, and must not use the connection.
    public func setProgressHandler(every instructions: Int32, _ handler: (() -> Bool)?) throws(SQLiteError) {
        let db = try requireHandle()
        guard let handler, instructions > 0 else {
            sqlite3_progress_handler(db, 0, nil, nil)
            hooks.progress = nil
            return
        }
        let box = HookBox(handler)
        hooks.progress = box
        sqlite3_progress_handler(db, instructions, { context in
            guard let handler = HookBox<() -> Bool>.from(context) else { return 0 }
            return handler() ? 1 : 0
        }, box.context)
    }
}
