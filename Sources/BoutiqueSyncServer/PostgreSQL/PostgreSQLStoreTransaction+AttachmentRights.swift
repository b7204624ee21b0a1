/// Attachment rights in the PostgreSQL store, as in the SQLite store: `boutique_sync_server_attachment_pointer`
/// joined with the rows' spaces when a user asks, and `boutique_sync_server_attachment_uploader`.
extension PostgreSQLStoreTransaction {
    func setAttachmentPointers(
        table: String, key: DatabaseValue, adding added: Set<String>, removing removed: Set<String>, at time: UInt64,
        writer: String?, vouched: Set<String>
    ) throws {
        let name = PostgreSQLValue.bytea(Array(table.utf8)), encodedKey = PostgreSQLValue.bytea(PostgreSQLKey.encode(key))
        for id in removed.sorted() {
            try write(
                "DELETE FROM boutique_sync_server_attachment_pointer WHERE tenant = $1 AND attachment = $2 AND tbl = $3 AND key = $4",
                [.text(id), name, encodedKey])
            try write(
                """
                INSERT INTO boutique_sync_server_attachment_release(tenant, attachment, released_at)
                SELECT $1, $2, $3 WHERE NOT EXISTS (SELECT 1 FROM boutique_sync_server_attachment_pointer WHERE tenant = $1 AND attachment = $2)
                ON CONFLICT (tenant, attachment) DO UPDATE SET released_at = excluded.released_at
                """,
                [.text(id), .int8(Int64(bitPattern: time))])
        }
        for id in added.sorted() {
            try write(
                """
                INSERT INTO boutique_sync_server_attachment_pointer(tenant, attachment, tbl, key, usr, vouched)
                VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING
                """,
                [.text(id), name, encodedKey, writer.map { .bytea(Array($0.utf8)) } ?? .null(.bytea), .bool(vouched.contains(id))])
            try write("DELETE FROM boutique_sync_server_attachment_release WHERE tenant = $1 AND attachment = $2", [.text(id)])
        }
    }

    func isAttachment(_ id: String, pointedAtFrom spaces: [SyncSpace]) throws -> Bool {
        let found = try run(
            """
            SELECT 1 FROM boutique_sync_server_attachment_pointer AS pointer
            JOIN boutique_sync_server_row AS row ON row.tenant = pointer.tenant AND row.tbl = pointer.tbl AND row.key = pointer.key
            WHERE pointer.tenant = $1 AND pointer.attachment = $2 AND pointer.vouched AND row.alive AND row.space = ANY($3)
            LIMIT 1
            """,
            [.text(id), .byteaArray(spaces.map { Array($0.rawValue.utf8) })])
        return found.rowCount > 0
    }

    func noteUploader(_ user: String, of id: String) throws {
        try write(
            "INSERT INTO boutique_sync_server_attachment_uploader(tenant, attachment, usr) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
            [.text(id), .bytea(Array(user.utf8))])
        try write(
            "UPDATE boutique_sync_server_attachment_pointer SET vouched = true WHERE tenant = $1 AND attachment = $2 AND usr = $3 AND NOT vouched",
            [.text(id), .bytea(Array(user.utf8))])
    }

    func attachmentStanding(_ id: String) throws -> (isPointedAt: Bool, releasedAt: UInt64?, isKnown: Bool) {
        let found = try run(
            """
            SELECT \(Self.livePointerExists),
                (SELECT released_at FROM boutique_sync_server_attachment_release WHERE tenant = $1 AND attachment = $2),
                EXISTS (SELECT 1 FROM boutique_sync_server_attachment_uploader WHERE tenant = $1 AND attachment = $2)
            """,
            [.text(id)])
        let released = try found.isNull(0, 1) ? nil : UInt64(bitPattern: try found.int64(0, 1))
        let uploaded = try found.bool(0, 2)
        return (try found.bool(0, 0), released, released != nil || uploaded)
    }

    /// Whether a live row points at attachment `$2` of tenant `$1`: what collection asks before it
    /// removes bytes (``attachmentStanding(_:)``, and ``PostgreSQLAttachmentStore``'s removal, in the
    /// same database).
    static let livePointerExists = """
        EXISTS (SELECT 1 FROM boutique_sync_server_attachment_pointer AS pointer
            JOIN boutique_sync_server_row AS row ON row.tenant = pointer.tenant AND row.tbl = pointer.tbl AND row.key = pointer.key
            WHERE pointer.tenant = $1 AND pointer.attachment = $2 AND row.alive)
        """

    func forgetAttachment(_ id: String) throws {
        for table in ["boutique_sync_server_attachment_uploader", "boutique_sync_server_attachment_release"] {
            try write("DELETE FROM \(table) WHERE tenant = $1 AND attachment = $2", [.text(id)])
        }
    }

    func isUploader(_ user: String, of id: String) throws -> Bool {
        try run(
            "SELECT 1 FROM boutique_sync_server_attachment_uploader WHERE tenant = $1 AND attachment = $2 AND usr = $3",
            [.text(id), .bytea(Array(user.utf8))]
        ).rowCount > 0
    }
}
