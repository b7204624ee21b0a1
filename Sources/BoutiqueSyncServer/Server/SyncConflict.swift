/// What a server-side resolver is shown: a pushed change and the row as the merge rule left it.
///
/// ```swift
/// let server = SyncServer(store: store, resolver: { conflict in
///     // Keep a counter from going below zero, whoever wrote last.
///     guard conflict.table == "stock", case .integer(let count)? = conflict.merged.visibleValues["count"], count < 0
///     else { return nil }
///     return [SyncColumnValue(name: "count", value: 0)]
/// })
/// ```
public struct SyncConflict: Sendable {
    /// The table of the row.
    public var table: String
    /// The row's primary-key value.
    public var key: DatabaseValue
    /// The pushed change.
    public var change: SyncChange
    /// The row's state before the change.
    public var previous: RowRegister
    /// The row's state after merging the change by the rule.
    public var merged: RowRegister

    /// What the resolver is shown for one pushed change.
    public init(table: String, key: DatabaseValue, change: SyncChange, previous: RowRegister, merged: RowRegister) {
        self.table = table
        self.key = key
        self.change = change
        self.previous = previous
        self.merged = merged
    }
}

/// A server-side resolver: runs on the server for every pushed insert or update after the merge, and
/// returns the column values to write instead, or `nil` to keep the merge's result. What it returns
/// becomes a new change, stamped by the server, that every device applies by the same rule.
public typealias SyncResolver = @Sendable (SyncConflict) -> [SyncColumnValue]?

/// A server-side authorization hook: whether `user` (from the request's verified token) may make
/// `change` to its tenant's data. Runs for every change of a push before anything is applied; one
/// `false` refuses that change's whole transaction, alone: the server records it as handled without
/// applying it, applies the push's other transactions, and answers with a ``/BoutiqueSync/PushRefusal``
/// carrying its version of the rows the transaction touched, which the device puts back. A refusal never
/// blocks the device's later pushes.
///
/// ```swift
/// let server = SyncServer(store: store, authorize: { user, change in
///     change.table != "invoice" || user.hasPrefix("admin:")
/// })
/// ```
///
/// Pushes that carry no user (an ``/BoutiqueSync/InProcessTransport`` of trusted code in the server's own process)
/// are not checked.
public typealias SyncAuthorizer = @Sendable (_ user: String, _ change: SyncChange) -> Bool
