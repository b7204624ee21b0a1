/// Attachment rights in the PostgreSQL store, as in the SQLite store: `boutique_sync_server_attachment_pointer`
/// joined with the rows' spaces when a user asks, and `boutique_sync_server_attachment_uploader`.
extension PostgreSQLStoreTransaction {
    func setAttachmentPointers(table: String, key: DatabaseValue, adding added: Set<String>, removing removed: Set<String>) throws {
        let name = PostgreSQLValue.bytea(Array(table.utf8)), encodedKey = PostgreSQLValue.bytea(PostgreSQLKey.encode(key))
        for id in removed.sorted() {
            try write(
                "DELETE FROM boutique_sync_server_attachment_pointer WHERE tenant = $1 AND attachment = $2 AND tbl = $3 AND key = $4",
                [.text(id), name, encodedKey])
        }
        for id in added.sorted() {
            try write(
                """
                INSERT INTO boutique_sync_server_attachment_pointer(tenant, attachment, tbl, key) VALUES ($1, $2, $3, $4)
                ON CONFLICT DO NOTHING
                """,
                [.text(id), name, encodedKey])
        }
    }

    func isAttachment(_ id: String, pointedAtFrom spaces: [SyncSpace]) throws -> Bool {
        let found = try run(
            """
            SELECT 1 FROM boutique_sync_server_attachment_pointer AS pointer
            JOIN boutique_sync_server_row AS row ON row.tenant = pointer.tenant AND row.tbl = pointer.tbl AND row.key = pointer.key
            WHERE pointer.tenant = $1 AND pointer.attachment = $2 AND row.alive AND row.space = ANY($3)
            LIMIT 1
            """,
            [.text(id), .byteaArray(spaces.map { Array($0.rawValue.utf8) })])
        return found.rowCount > 0
    }

    func noteUploader(_ user: String, of id: String) throws {
        try write(
            "INSERT INTO boutique_sync_server_attachment_uploader(tenant, attachment, usr) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
            [.text(id), .bytea(Array(user.utf8))])
    }

    func isUploader(_ user: String, of id: String) throws -> Bool {
        try run(
            "SELECT 1 FROM boutique_sync_server_attachment_uploader WHERE tenant = $1 AND attachment = $2 AND usr = $3",
            [.text(id), .bytea(Array(user.utf8))]
        ).rowCount > 0
    }
}
