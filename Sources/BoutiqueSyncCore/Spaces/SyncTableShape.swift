/// A synced table as a device describes it to the server: its columns and the tables its single-column
/// foreign keys point to, names lowercased as sync sends them.
///
/// Devices send their shapes with each push; a server with ``SyncRules`` learns from them which table a
/// follower's column points to, and checks its rules against them.
public struct SyncTableShape: Hashable, Sendable, Codable {
    /// The table.
    public var table: String
    /// Its columns, the key column included.
    public var columns: [String]
    /// Column → the table its foreign key points to (at that table's key).
    public var references: [String: String]
    /// Its collaborative text columns, sorted (``SyncOptions/collaborativeText``); `nil` for none (and
    /// from devices that predate them). The server merges these columns as text, and refuses a device
    /// that names other ones than the tenant's devices named before.
    public var collaborativeText: [String]?
    /// Its columns that may hold attachments (``/BoutiqueDB/Attachment`` values), sorted; `nil` for
    /// none (and from devices that predate attachments). The server learns from them which rows point
    /// at which attachment: a user reads an attachment's bytes when a row they see points at it.
    public var attachments: [String]?

    /// A table's shape; names are lowercased.
    public init(
        table: String, columns: [String], references: [String: String] = [:], collaborativeText: [String] = [],
        attachments: [String] = []
    ) {
        let collaborative = Set(collaborativeText.map { $0.lowercased() }).sorted()
        self.collaborativeText = collaborative.isEmpty ? nil : collaborative
        let attachmentColumns = Set(attachments.map { $0.lowercased() }).sorted()
        self.attachments = attachmentColumns.isEmpty ? nil : attachmentColumns
        self.table = table.lowercased()
        self.columns = columns.map { $0.lowercased() }
        self.references = Dictionary(references.map { ($0.key.lowercased(), $0.value.lowercased()) }, uniquingKeysWith: { first, _ in first })
    }
}
