import Foundation

/// How far a bootstrap that has not finished got, kept in `boutique_sync_server.snapshot_progress`
/// and written in the transaction that merged the page it describes, so that a device killed halfway
/// resumes after the last page it committed.
struct BootstrapResumePoint: Sendable, Hashable, Codable {
    /// The last row committed: the next page starts after it.
    var after: SnapshotPosition
    /// The log position the first page included, where the pull starts once the last page is merged.
    /// The first page's and not a later one's: rows of the pages before a later page's position may
    /// have changed since they were read, and only a pull from the first page's position brings that.
    var cursor: Int64
    /// Whether this is a bootstrap again (rows the server forgot are dropped at its end).
    var again: Bool
    /// Snapshot rows received so far, for progress reports.
    var rowsDone: Int
    /// How many rows the server said it holds, when it said.
    var totalRows: Int?

    /// The column's text: JSON, which spells the position's key by its type (``SnapshotPosition``).
    func encoded() throws -> String {
        String(decoding: try SyncJSON.encoder().encode(self), as: UTF8.self)
    }

    /// The progress a column holds; `nil` for none.
    static func decoded(_ value: DatabaseValue) throws -> BootstrapResumePoint? {
        guard case .text(let text) = value else { return nil }
        return try SyncJSON.decoder().decode(BootstrapResumePoint.self, from: Data(text.utf8))
    }
}
