/// Attachment rights in the SQLite store: `boutique_sync_server_attachment_pointer` (the rows that
/// point at each attachment, joined with the rows' spaces when a user asks) and
/// `boutique_sync_server_attachment_uploader`.
extension SQLiteStoreTransaction {
    func setAttachmentPointers(
        table: String, key: DatabaseValue, adding added: Set<String>, removing removed: Set<String>, at time: UInt64,
        writer: String?, vouched: Set<String>
    ) throws {
        for id in removed.sorted() {
            try run(
                "DELETE FROM boutique_sync_server_attachment_pointer WHERE tenant = ? AND attachment = ? AND tbl = ? AND key = ?",
                [.text(tenant), .text(id), .text(table), key])
            try run(
                """
                INSERT OR REPLACE INTO boutique_sync_server_attachment_release(tenant, attachment, released_at)
                SELECT ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM boutique_sync_server_attachment_pointer WHERE tenant = ? AND attachment = ?)
                """,
                [.text(tenant), .text(id), .integer(Int64(bitPattern: time)), .text(tenant), .text(id)])
        }
        for id in added.sorted() {
            try run(
                """
                INSERT OR IGNORE INTO boutique_sync_server_attachment_pointer(tenant, attachment, tbl, key, writer, vouched)
                VALUES (?, ?, ?, ?, ?, ?)
                """,
                [.text(tenant), .text(id), .text(table), key, writer.map { .text($0) } ?? .null, .integer(vouched.contains(id) ? 1 : 0)])
            try run("DELETE FROM boutique_sync_server_attachment_release WHERE tenant = ? AND attachment = ?", [.text(tenant), .text(id)])
        }
    }

    func isAttachment(_ id: String, pointedAtFrom spaces: [SyncSpace]) throws -> Bool {
        let found = try rows(
            """
            SELECT 1 FROM boutique_sync_server_attachment_pointer AS pointer
            JOIN boutique_sync_server_row AS row ON row.tenant = pointer.tenant AND row.tbl = pointer.tbl AND row.key = pointer.key
            WHERE pointer.tenant = ? AND pointer.attachment = ? AND pointer.vouched AND row.alive = 1
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
        try run(
            "UPDATE boutique_sync_server_attachment_pointer SET vouched = 1 WHERE tenant = ? AND attachment = ? AND writer = ? AND NOT vouched",
            [.text(tenant), .text(id), .text(user)])
    }

    func attachmentStanding(_ id: String) throws -> (isPointedAt: Bool, releasedAt: UInt64?, isKnown: Bool) {
        let found = try rows(
            """
            SELECT EXISTS (SELECT 1 FROM boutique_sync_server_attachment_pointer AS pointer
                    JOIN boutique_sync_server_row AS row ON row.tenant = pointer.tenant AND row.tbl = pointer.tbl AND row.key = pointer.key
                    WHERE pointer.tenant = ?1 AND pointer.attachment = ?2 AND row.alive = 1),
                (SELECT released_at FROM boutique_sync_server_attachment_release WHERE tenant = ?1 AND attachment = ?2),
                EXISTS (SELECT 1 FROM boutique_sync_server_attachment_uploader WHERE tenant = ?1 AND attachment = ?2)
            """,
            [.text(tenant), .text(id)])
        guard let row = found.first, case .integer(let pointed) = row[0], case .integer(let uploaded) = row[2] else {
            throw BoutiqueError.decoding(.init(table: "boutique_sync_server_attachment_pointer", column: "standing", expectedType: "flags", found: "\(found)"))
        }
        var released: UInt64?
        if case .integer(let time) = row[1] { released = UInt64(bitPattern: time) }
        return (pointed != 0, released, released != nil || uploaded != 0)
    }

    func forgetAttachment(_ id: String) throws {
        for table in ["boutique_sync_server_attachment_uploader", "boutique_sync_server_attachment_release"] {
            try run("DELETE FROM \(table) WHERE tenant = ? AND attachment = ?", [.text(tenant), .text(id)])
        }
    }

    func isUploader(_ user: String, of id: String) throws -> Bool {
        !(try rows(
            "SELECT 1 FROM boutique_sync_server_attachment_uploader WHERE tenant = ? AND attachment = ? AND user = ?",
            [.text(tenant), .text(id), .text(user)]
        ).isEmpty)
    }
}
