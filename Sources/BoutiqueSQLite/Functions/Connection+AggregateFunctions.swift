import CSQLite

/// What SQLite calls for an aggregate SQL function: a maker of ``SQLAggregation``s, one per group.
/// SQLite owns one retain on it and releases it through the destructor callback.
final class SQLAggregateFunctionBox {
    let name: String
    let rows: FunctionArgumentRows
    let start: () -> any SQLAggregation

    init(name: String, rows: FunctionArgumentRows, start: @escaping () -> any SQLAggregation) {
        self.name = name
        self.rows = rows
        self.start = start
    }
}

/// One group's aggregation, kept in SQLite's per-group memory (`sqlite3_aggregate_context`) as a
/// retained pointer from its first row to `xFinal`, which SQLite calls once for every group it
/// started, also when the statement stops early, so every retain is given back.
private final class AggregationState {
    var aggregation: any SQLAggregation
    /// A row failed: the statement is failing, and the function is not asked for a result.
    var failed = false

    init(_ aggregation: any SQLAggregation) { self.aggregation = aggregation }
}

extension Connection {
    /// Adds (or replaces) an aggregate SQL function named `name` taking `argumentCount` arguments
    /// (`-1`: any number) on this connection (`sqlite3_create_function_v2` with a step and a final
    /// callback).
    ///
    /// ```swift
    /// try connection.createAggregateFunction("longest", argumentCount: 1) { Longest() }
    /// try connection.fetchValue("SELECT longest(title) FROM note")
    /// ```
    ///
    /// `start` makes the ``SQLAggregation`` of each group; it is stepped with each row's arguments and
    /// finished at the group's end (an empty group is finished without a step, as `SELECT f(x) FROM t`
    /// is on an empty table). The calls run inside `sqlite3_step` and must not use the connection. An
    /// error thrown by a step or by the finish fails the calling statement with its message.
    public func createAggregateFunction(
        _ name: String, argumentCount: Int32, deterministic: Bool = false,
        _ start: @escaping () -> any SQLAggregation
    ) throws(SQLiteError) {
        let db = try requireHandle()
        try Connection.checkFunctionArgumentCount(argumentCount, name: name)
        var flags = SQLITE_UTF8
        if deterministic { flags |= SQLITE_DETERMINISTIC }
        // SQLite owns this retain from now on; `releaseAggregateFunctionBox` gives it back, even when
        // the registration fails.
        let box = SQLAggregateFunctionBox(name: name, rows: functionArgumentRows, start: start)
        let context = Unmanaged.passRetained(box).toOpaque()
        let rc = sqlite3_create_function_v2(
            db, name, argumentCount, flags, context, nil, stepAggregate, finishAggregate, releaseAggregateFunctionBox)
        guard rc == SQLITE_OK else {
            throw SQLiteError(ResultCode(rawValue: rc), message: String(cString: sqlite3_errmsg(db)))
        }
    }
}

private func stepAggregate(
    _ context: OpaquePointer?, _ count: Int32, _ values: UnsafeMutablePointer<OpaquePointer?>?
) {
    guard let raw = sqlite3_user_data(context) else { return }
    let box = Unmanaged<SQLAggregateFunctionBox>.fromOpaque(raw).takeUnretainedValue()
    // Zeroed on the group's first row.
    guard let memory = sqlite3_aggregate_context(context, Int32(MemoryLayout<UnsafeMutableRawPointer?>.size)) else {
        sqlite3_result_error_nomem(context)
        return
    }
    let slot = memory.assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
    let state: AggregationState
    if let stored = slot.pointee {
        state = Unmanaged<AggregationState>.fromOpaque(stored).takeUnretainedValue()
    } else {
        state = AggregationState(box.start())
        slot.pointee = Unmanaged.passRetained(state).toOpaque()
    }
    guard !state.failed else { return }
    do {
        try box.rows.withRow(count: count, values: values) { row in try state.aggregation.step(row) }
    } catch {
        state.failed = true
        setFunctionError(context, name: box.name, error)
    }
}

private func finishAggregate(_ context: OpaquePointer?) {
    guard let raw = sqlite3_user_data(context) else { return }
    let box = Unmanaged<SQLAggregateFunctionBox>.fromOpaque(raw).takeUnretainedValue()
    // Asking for no memory gives the group's memory when a row was stepped, nil otherwise.
    var state: AggregationState?
    if let memory = sqlite3_aggregate_context(context, 0) {
        let slot = memory.assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
        if let stored = slot.pointee {
            state = Unmanaged<AggregationState>.fromOpaque(stored).takeRetainedValue()
            slot.pointee = nil
        }
    }
    if state?.failed == true { return }
    let aggregation = state?.aggregation ?? box.start()
    do {
        setFunctionResult(context, try aggregation.finish())
    } catch {
        setFunctionError(context, name: box.name, error)
    }
}

private func releaseAggregateFunctionBox(_ raw: UnsafeMutableRawPointer?) {
    guard let raw else { return }
    Unmanaged<SQLAggregateFunctionBox>.fromOpaque(raw).release()
}
