/// One row change on the wire: the row by table and primary-key value (never a rowid), what happened,
/// the columns it assigned, and its stamp.
///
/// ```swift
/// SyncChange(table: "note", key: .text(id), kind: .update,
///            columns: [SyncColumnValue(name: "title", value: "Groceries")], stamp: stamp)
/// ```
///
/// An insert carries every column the writer's table has, an update only the columns it assigned, a
/// delete none.
public struct SyncChange: Hashable, Sendable, Codable {
    /// Insert, update or delete.
    public enum Kind: String, Hashable, Sendable, Codable {
        /// A new row with every column, a change of the columns it assigned, a removal of the row.
        case insert, update, delete
    }

    /// The table's name, as data: it only ever selects among the tables a device configured.
    public var table: String
    /// The primary-key value.
    public var key: DatabaseValue
    /// Insert, update or delete.
    public var kind: Kind
    /// The assigned columns and their new values.
    public var columns: [SyncColumnValue]
    /// The write's stamp (its transaction's).
    public var stamp: SyncStamp
    /// How far the writer had pulled when it made the change: its pull cursor (a sequence number of
    /// the server's log) at that moment, not when it pushed. The writer had every change of the log at
    /// or before it; a write it overwrites that is later in the log, or in no log, it had not, and that
    /// write was beaten by a concurrent one, which its device reports as a loss. `nil` when not known
    /// (changes of devices and servers that predate it, and the server's own).
    public var seen: Int64?

    /// A change of the row `key` of `table`.
    public init(table: String, key: DatabaseValue, kind: Kind, columns: [SyncColumnValue], stamp: SyncStamp) {
        self.table = table
        self.key = key
        self.kind = kind
        self.columns = columns
        self.stamp = stamp
    }

    private enum CodingKeys: String, CodingKey { case table, key, kind, columns, stamp, seen }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        table = try container.decode(String.self, forKey: .table)
        key = try container.decode(WireValue.self, forKey: .key).value
        kind = try container.decode(Kind.self, forKey: .kind)
        columns = try container.decode([SyncColumnValue].self, forKey: .columns)
        stamp = try container.decode(SyncStamp.self, forKey: .stamp)
        seen = try container.decodeIfPresent(Int64.self, forKey: .seen)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(table, forKey: .table)
        try container.encode(WireValue(key), forKey: .key)
        try container.encode(kind, forKey: .kind)
        try container.encode(columns, forKey: .columns)
        try container.encode(stamp, forKey: .stamp)
        try container.encodeIfPresent(seen, forKey: .seen)
    }
}

/// A column's name and value in a ``SyncChange``.
public struct SyncColumnValue: Hashable, Sendable, Codable {
    /// The column's name, lowercased.
    public var name: String
    /// The value the change assigned.
    public var value: DatabaseValue

    /// A column value.
    public init(name: String, value: DatabaseValue) {
        self.name = name
        self.value = value
    }

    private enum CodingKeys: String, CodingKey { case name, value }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        value = try container.decode(WireValue.self, forKey: .value).value
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(WireValue(value), forKey: .value)
    }
}
