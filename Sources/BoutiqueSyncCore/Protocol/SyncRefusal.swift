import Foundation

/// The sync server answered and said no: why, and what it refused. (A write of a collaborative text
/// column that the device itself cannot merge is reported the same way, as ``Reason/invalid``, before
/// any server sees it: see ``SyncOptions/collaborativeText``.)
///
/// ```swift
/// for await refusal in sync.refusals {
///     switch refusal.reason {
///     case .forbidden: showAlert("You can't change \(refusal.table ?? "this")")   // the change was undone
///     case .unauthorized: await signIn()                                         // sync waits for new credentials
///     default: log(refusal.message)
///     }
/// }
/// ```
///
/// A refusal of one transaction (``Reason/forbidden``) never blocks the device: the server records the
/// transaction as handled, the device puts the server's version of the rows it touched back (live
/// queries see it), and sync goes on. A refusal of the device itself (``Reason/unauthorized``,
/// ``Reason/appTooOld``, ``Reason/protocolMismatch``) stops background sync, pulls included, until the
/// app acts (new credentials, an update) and starts it again. The others are retried; a push the
/// server could not place (``Reason/rulesMismatch``) keeps its changes pending, and pulls go on.
public struct SyncRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why the server refused. Over HTTP, the error body's `code` is the raw value
    /// (``httpStatus`` gives the status).
    public enum Reason: String, Sendable, Hashable, Codable, CaseIterable {
        /// The token is missing, malformed, expired or not this server's (HTTP 401).
        case unauthorized
        /// The user may not make this change (HTTP 403, or the server's authorization rule).
        case forbidden
        /// The request is larger than the server takes (HTTP 413).
        case tooLarge
        /// The app's schema is older than the server accepts (HTTP 426).
        case appTooOld
        /// The device's clock is too far ahead of the server's (HTTP 400).
        case clockSkew
        /// The app speaks a protocol version the server does not (HTTP 426).
        case protocolMismatch
        /// The server found the request malformed, or sent a reply that makes no sense (HTTP 400).
        case invalid
        /// The replica id is bound to another device's secret (HTTP 403): a
        /// file restored from a backup made before its secret, say. The device takes a new replica id,
        /// as after a mismatch, and sync goes on.
        case replicaTaken
        /// The server's sync rules do not match the tables this tenant's devices sync (a follower's
        /// column its table lacks, or a misspelt table name), so it cannot tell which space the pushed
        /// rows belong in, and places none (HTTP 503). Nothing of
        /// the push was applied: the changes stay pending on the device, which keeps pulling and pushes
        /// them again later, once the server's operator has fixed the rules.
        case rulesMismatch

        /// Whether the refusal is of the device itself, not of one change: sync stops until the app acts.
        public var stopsSync: Bool { self == .unauthorized || self == .appTooOld || self == .protocolMismatch }
    }

    /// Why the server refused.
    public var reason: Reason
    /// The server's explanation.
    public var message: String
    /// The refused local transaction (its `change_txn_id` in `turso_cdc`), when one transaction was refused.
    public var transactionID: Int64?
    /// The table of the change that was refused, when the server named it.
    public var table: String?
    /// The key of the row whose change was refused, when the server named it.
    public var key: DatabaseValue?
    /// What the refused transaction wrote to that row, as this device had written it, by column name
    /// as the table declares it: every column of an insert, the assigned columns of an update, none for
    /// a delete. The device reads it from its own log (the server sends no values back for it); empty
    /// for refusals of the device itself.
    public var values: [String: DatabaseValue] = [:]
    /// The whole row as this device showed it before sync put the server's version back (after the
    /// refused change; for a refused delete, the row as it was before it), by column name as the table
    /// declares it: what the app can offer to restore. Empty when the device did not show the row.
    public var row: [String: DatabaseValue] = [:]

    /// A refusal.
    public init(reason: Reason, message: String, transactionID: Int64? = nil, table: String? = nil, key: DatabaseValue? = nil) {
        self.reason = reason
        self.message = message
        self.transactionID = transactionID
        self.table = table
        self.key = key
    }

    /// The reason and the server's message.
    public var description: String { "sync refused (\(reason.rawValue)): \(message)" }

    /// What this device wrote and the server refused, as a row of the app's `@Table` type: ``row``
    /// with ``values`` over it.
    ///
    /// ```swift
    /// for await refusal in sync.refusals where refusal.reason == .forbidden {
    ///     if refusal.table == Reminder.tableName, let mine = try? refusal.values(as: Reminder.self) {
    ///         offerToKeepACopy(mine)   // the list was unshared while this device was offline
    ///     }
    /// }
    /// ```
    ///
    /// A column with no value in either takes its declared default, or `nil` when optional; otherwise
    /// this throws a `BoutiqueError` naming the column.
    public func values<T: Table>(as type: T.Type) throws -> T {
        try SyncRowValues.decode(row.merging(values) { _, written in written }, as: type, source: table ?? T.tableName)
    }
}
