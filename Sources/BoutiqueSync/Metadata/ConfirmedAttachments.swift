import BoutiqueSQLite

/// The attachments this device knows a server holds whole, in `boutique_sync_attachment_confirmed`, by
/// the server's address: recorded when an upload ends with the server's check of the bytes, and when a
/// download's bytes are checked here against the id.
///
/// ```swift
/// try ConfirmedAttachments.record(photo.image, server: "https://sync.example.com", conn)
/// let confirmed = try ConfirmedAttachments.all(server: "https://sync.example.com", SQLRunner(conn))
/// ```
///
/// It is the positive record a byte budget needs (``AttachmentCache``): bytes not listed here may be the
/// only copy there is, and are never evicted. A server reached at another address has confirmed nothing
/// yet, whatever this one did: a copy of the file pointed at a new server keeps every byte until that
/// server has them.
enum ConfirmedAttachments {
    /// Records that the server at `server` holds `attachment` whole; nothing in a file never set up
    /// for sync (the tool fetching into one), which has no budget either.
    static func record(_ attachment: Attachment, server: String, _ conn: DatabaseConnection) throws {
        let sql = SQLRunner(conn)
        guard try isKept(sql) else { return }
        try sql.run(
            "INSERT OR REPLACE INTO boutique_sync_attachment_confirmed(server, id, byte_count) VALUES (?, ?, ?)",
            [.text(server), .text(attachment.id), .integer(attachment.byteCount)])
    }

    /// Whether the file has the table: one set up for sync by this version or a later one.
    private static func isKept(_ sql: SQLRunner) throws -> Bool {
        try sql.value("SELECT count(*) FROM sqlite_schema WHERE name = 'boutique_sync_attachment_confirmed'")?.integerValue == 1
    }

    /// The byte count of every attachment the server at `server` confirmed, by id.
    static func all(server: String, _ sql: SQLRunner) throws -> [String: Int64] {
        var confirmed: [String: Int64] = [:]
        for row in try sql.rows("SELECT id, byte_count FROM boutique_sync_attachment_confirmed WHERE server = ?", [.text(server)]) {
            guard let id = row[0].textValue, let count = row[1].integerValue else { continue }
            confirmed[id] = count
        }
        return confirmed
    }

    /// Forgets `ids` at every server: attachments whose rows left the device, which the server may no
    /// longer let this user fetch. Kept bytes (a row of a table that does not sync points at them) then
    /// never count against a budget.
    static func forgetEverywhere(_ ids: some Sequence<String>, _ sql: SQLRunner) throws {
        guard try isKept(sql) else { return }
        for id in ids { try sql.run("DELETE FROM boutique_sync_attachment_confirmed WHERE id = ?", [.text(id)]) }
    }

    /// Forgets `ids` at `server`: bytes evicted from this device, or gone from it otherwise. Fetching
    /// them again records them again.
    static func forget(_ ids: some Sequence<String>, server: String, _ sql: SQLRunner) throws {
        for id in ids {
            try sql.run("DELETE FROM boutique_sync_attachment_confirmed WHERE server = ? AND id = ?", [.text(server), .text(id)])
        }
    }
}
