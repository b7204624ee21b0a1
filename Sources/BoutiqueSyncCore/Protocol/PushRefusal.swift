/// One pushed transaction the server refused, and the server's version of every row it touched: the
/// device puts those back, so that what the server refused shows nowhere.
///
/// ```swift
/// for refusal in response.refusals ?? [] {
///     print(refusal.transactionID, refusal.table, refusal.reason, refusal.rows.count, refusal.absentRows.count)
/// }
/// ```
///
/// The server records a refused transaction as handled (the replica's watermark moves past it), so
/// one refusal never blocks the device's later pushes.
public struct PushRefusal: Hashable, Sendable, Codable {
    /// The refused transaction's id on the device.
    public var transactionID: Int64
    /// The table of the change that was refused.
    public var table: String
    /// The key of the row whose change was refused.
    public var key: DatabaseValue
    /// Why.
    public var reason: SyncRefusal.Reason
    /// The server's explanation.
    public var message: String
    /// The rows the transaction touched that the server holds, with their state there now.
    public var rows: [SnapshotRow]
    /// The rows the transaction touched that the server has never had (a refused insert): the device
    /// removes them.
    public var absentRows: [SnapshotPosition]
    /// Whether the rows were left out (``rows`` and ``absentRows`` are empty): a transaction sent in
    /// parts (``PushPart``) touches more rows than an answer carries. The device takes the server's
    /// version of every row it touched from a snapshot instead.
    public var rowsLeftOut: Bool

    /// A refusal of transaction `transactionID`.
    public init(
        transactionID: Int64, table: String, key: DatabaseValue, reason: SyncRefusal.Reason, message: String, rows: [SnapshotRow],
        absentRows: [SnapshotPosition], rowsLeftOut: Bool = false
    ) {
        self.rowsLeftOut = rowsLeftOut
        self.transactionID = transactionID
        self.table = table
        self.key = key
        self.reason = reason
        self.message = message
        self.rows = rows
        self.absentRows = absentRows
    }

    private enum CodingKeys: String, CodingKey { case transactionID, table, key, reason, message, rows, absentRows, rowsLeftOut }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        transactionID = try container.decode(Int64.self, forKey: .transactionID)
        table = try container.decode(String.self, forKey: .table)
        key = try container.decode(WireValue.self, forKey: .key).value
        reason = try container.decode(SyncRefusal.Reason.self, forKey: .reason)
        message = try container.decode(String.self, forKey: .message)
        rows = try container.decode([SnapshotRow].self, forKey: .rows)
        absentRows = try container.decode([SnapshotPosition].self, forKey: .absentRows)
        rowsLeftOut = try container.decodeIfPresent(Bool.self, forKey: .rowsLeftOut) ?? false
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(transactionID, forKey: .transactionID)
        try container.encode(table, forKey: .table)
        try container.encode(WireValue(key), forKey: .key)
        try container.encode(reason, forKey: .reason)
        try container.encode(message, forKey: .message)
        try container.encode(rows, forKey: .rows)
        try container.encode(absentRows, forKey: .absentRows)
        if rowsLeftOut { try container.encode(rowsLeftOut, forKey: .rowsLeftOut) }
    }
}
