/// Attachment rights in the SQLite store: `boutique_sync_server_attachment_pointer` (the rows that
/// point at each attachment, joined with the rows' spaces when a user asks) and
/// `boutique_sync_server_attachment_uploader`.
extension SQLiteStoreTransaction {
    func setAttachmentPointers(table: String, key: DatabaseValue, adding added: Set<String>, removing removed: Set<String>) throws {
        for id in removed.sorted() {
            try run(
                "DELETE FROM boutique_sync_server_attachment_pointer WHERE tenant = ? AND attachment = ? AND tbl = ? AND key = ?",
                [.text(tenant), .text(id), .text(table), key])
        }
        for id in added.sorted() {
            try run(
                "INSERT OR IGNORE INTO boutique_sync_server_attachment_pointer(tenant, attachment, tbl, key) VALUES (?, ?, ?, ?)",
                [.text(tenant), .text(id), .text(table), key])
        }
    }

    func isAttachment(_ id: String, pointedAtFrom spaces: [SyncSpace]) throws -> Bool {
        let found = try rows(
            """
            SELECT 1 FROM boutique_sync_server_attachment_pointer AS pointer
            JOIN boutique_sync_server_row AS row ON row.tenant = pointer.tenant AND row.tbl = pointer.tbl AND row.key = pointer.key
            WHERE pointer.tenant = ? AND pointer.attachment = ? AND row.alive = 1
              AND hex(row.space) IN (SELECT value FROM json_each(?))
            LIMIT 1
            """,
            [.text(tenant), .text(id), .text(Self.hexJSON(spaces))])
        return !found.isEmpty
    }

    func noteUploader(_ user: String, of id: String) throws {
        try run(
            "INSERT OR IGNORE INTO boutique_sync_server_attachment_uploader(tenant, attachment, user) VALUES (?, ?, ?)",
            [.text(tenant), .text(id), .text(user)])
    }

    func isUploader(_ user: String, of id: String) throws -> Bool {
        !(try rows(
            "SELECT 1 FROM boutique_sync_server_attachment_uploader WHERE tenant = ? AND attachment = ? AND user = ?",
            [.text(tenant), .text(id), .text(user)]
        ).isEmpty)
    }
}
