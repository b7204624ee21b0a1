/// A light announcement of one committed transaction: which tables it changed and whether it was
/// the app's own, without reading the change log.
///
/// ```swift
/// for await commit in await database.commitSignals() where !commit.isRemote {
///     if commit.tables?.contains("note") ?? true { await pushSoon() }
/// }
/// ```
public struct CommitSignal: Sendable, Hashable {
    /// The transaction's COMMIT row in `turso_cdc`; `nil` when the log is off or the position is unknown.
    public var token: ChangeToken?
    /// The tables it changed, lowercased (`sqlite_schema` for a schema change); `nil` when unknown
    /// (some commits of other processes), which means any table may have changed.
    public var tables: Set<String>?
    /// Whether it applied another replica's changes (``TransactionOrigin/remote``).
    public var isRemote: Bool
    /// Whether another process (another connection to the file) committed it.
    public var isExternal: Bool

    /// A signal; tables are given lowercased.
    public init(token: ChangeToken?, tables: Set<String>?, isRemote: Bool, isExternal: Bool) {
        self.token = token
        self.tables = tables
        self.isRemote = isRemote
        self.isExternal = isExternal
    }

    /// Whether it may have changed one of `tables` (lowercased names).
    public func mayHaveChanged(anyOf tables: Set<String>) -> Bool {
        guard let changed = self.tables else { return true }
        return !changed.isDisjoint(with: tables)
    }
}
