import BoutiqueSQLite

/// The attachments whose bytes this file may still have to upload, in `boutique_sync_attachment_upload`:
/// filled by triggers on the synced columns that hold attachments (recorded from the app's models in
/// `boutique_sync_attachment_column`), so that a row written by any process that opens the file — the
/// app, an extension, the command-line tool — queues its attachment in its own transaction.
///
/// ```swift
/// try AttachmentUploadQueue.record(columns: [("photo", "image")], conn)   // when sync is set up
/// let waiting = try AttachmentUploadQueue.waiting(SQLRunner(conn))       // what the uploader sends
/// try AttachmentUploadQueue.remove(attachment.id, SQLRunner(conn))       // once the server holds it
/// ```
///
/// Pulled rows queue their attachments too: the uploader drops those whose bytes are not on this
/// device (another device uploads them). Entries are only ever removed once the server confirmed the
/// bytes whole, or when there are no bytes here to send. One the server refused (too large, past the
/// quota, not the id's bytes) stays, marked with the refusal and its time, and the entries after it go
/// on. Bytes that are not the id's are not sent again: the same bytes would get the same answer. Bytes
/// too large are, once ``waiting(_:retryingRefusedAt:)``'s time has come: the tenant's quota may have
/// freed (the server's housekeeping removes bytes no row points at), or its limit risen.
enum AttachmentUploadQueue {
    /// Records `columns` (table, column) as attachment columns, besides those recorded before, and
    /// makes sure every recorded column has its triggers (a migration that rebuilt a table drops them).
    /// A column met for the first time (or first since this version) also queues the attachments its
    /// rows already hold: a database that had photos before sync was set up uploads them.
    /// Returns every recorded column that exists, by lowercased table: what the device describes to
    /// the server (``SyncTableShape/attachments``), which lets the readers of a row read its attachments.
    @discardableResult
    static func record(columns: [(table: String, column: String)], _ conn: DatabaseConnection) throws -> [String: [String]] {
        let sql = SQLRunner(conn)
        for (table, column) in columns {
            try sql.run("INSERT OR IGNORE INTO boutique_sync_attachment_column(tbl, col) VALUES (?, ?)", [.text(table), .text(column)])
        }
        var recorded: [String: [String]] = [:]
        for row in try sql.rows("SELECT tbl, col, backfilled FROM boutique_sync_attachment_column ORDER BY tbl, col") {
            guard let table = row[0].textValue, let column = row[1].textValue else { continue }
            // A table or column since dropped keeps its record and gets no trigger.
            let exists = try sql.value("SELECT count(*) FROM pragma_table_info(?) WHERE name = ?", [.text(table), .text(column)])
            guard exists?.integerValue == 1 else { continue }
            for (event, suffix) in [("INSERT", "insert"), ("UPDATE OF \(SQLIdentifier.quote(column))", "update")] {
                try conn.execute(trigger(table: table, column: column, event: event, suffix: suffix))
            }
            // Rows written before the column was known (or before this version) had no trigger to
            // queue their attachments: once per column.
            if row[2].integerValue != 1 {
                try queueExisting(table: table, column: column, sql)
                try sql.run("UPDATE boutique_sync_attachment_column SET backfilled = 1 WHERE tbl = ? AND col = ?", [.text(table), .text(column)])
            }
            recorded[table.lowercased(), default: []].append(column)
        }
        return recorded
    }

    /// The columns of `tables` not recorded yet that hold an attachment in some row: how a process
    /// that names its tables without models (the command-line tool) finds the columns the app's models
    /// would have recorded. One query per column, stopping at the first attachment it finds.
    static func found(in tables: [String], _ conn: DatabaseConnection) throws -> [(table: String, column: String)] {
        let sql = SQLRunner(conn)
        var found: [(table: String, column: String)] = []
        for table in tables {
            let columns = try sql.rows(
                """
                SELECT name FROM pragma_table_info(?) WHERE pk = 0 AND (type = '' OR upper(type) LIKE '%TEXT%' OR upper(type) LIKE '%CHAR%' OR upper(type) LIKE '%JSON%')
                  AND name NOT IN (SELECT col FROM boutique_sync_attachment_column WHERE tbl = ?)
                """, [.text(table), .text(table)])
            for row in columns {
                guard let column = row[0].textValue else { continue }
                let value = SQLIdentifier.quote(column)
                let holds = try sql.value(
                    "SELECT 1 FROM \(SQLIdentifier.quote(table)) WHERE \(attachmentShape(value)) LIMIT 1", [])
                if holds != nil { found.append((table, column)) }
            }
        }
        return found
    }

    /// Whether `value` (an SQL expression) has an attachment's shape. The `CASE` keeps the JSON
    /// functions away from text that is not JSON (they would fail the row's statement).
    private static func attachmentShape(_ value: String) -> String {
        """
        CASE WHEN typeof(\(value)) = 'text' AND \(value) LIKE '{%' AND json_valid(\(value))
            THEN json_type(\(value), '$.id') = 'text' AND length(json_extract(\(value), '$.id')) = 64
                AND json_type(\(value), '$.byteCount') = 'integer' AND json_type(\(value), '$.contentType') = 'text'
            ELSE 0 END
        """
    }

    /// Queues the attachments the rows of `table` already hold in `column`: one pass over the table,
    /// when the column is first recorded. Those a server already confirmed (fetched from it: the rows
    /// were pulled) are not: queued, they would be kept on the device past a departure of their rows.
    /// Those whose bytes are not on this device are dropped by the uploader, as for a pulled row's.
    private static func queueExisting(table: String, column: String, _ sql: SQLRunner) throws {
        let value = SQLIdentifier.quote(column)
        try sql.run(
            """
            INSERT OR IGNORE INTO boutique_sync_attachment_upload(id, byte_count, content_type)
            SELECT json_extract(\(value), '$.id'), json_extract(\(value), '$.byteCount'), json_extract(\(value), '$.contentType')
            FROM \(SQLIdentifier.quote(table))
            WHERE \(attachmentShape(value))
              AND json_extract(\(value), '$.id') NOT IN (SELECT id FROM boutique_sync_attachment_confirmed)
            """)
    }

    /// The trigger that queues the attachment a row's `column` holds after `event`.
    private static func trigger(table: String, column: String, event: String, suffix: String) -> String {
        let value = "NEW." + SQLIdentifier.quote(column)
        let name = SQLIdentifier.quote("boutique_sync_attachment_\(table)_\(column)_\(suffix)")
        return """
            CREATE TRIGGER IF NOT EXISTS \(name) AFTER \(event) ON \(SQLIdentifier.quote(table))
            WHEN \(attachmentShape(value))
            BEGIN
                INSERT OR IGNORE INTO boutique_sync_attachment_upload(id, byte_count, content_type)
                VALUES (json_extract(\(value), '$.id'), json_extract(\(value), '$.byteCount'), json_extract(\(value), '$.contentType'));
            END
            """
    }

    /// The queued attachments to send, by id: those not refused, and those refused as too large at or
    /// before `retryingRefusedAt` (milliseconds since 1970; a refusal from before times were kept counts
    /// as old). Entries that are not attachments (a damaged row) are left out.
    static func waiting(_ sql: SQLRunner, retryingRefusedAt: UInt64 = 0) throws -> [Attachment] {
        try sql.rows(
            """
            SELECT id, byte_count, content_type FROM boutique_sync_attachment_upload
            WHERE refusal IS NULL OR (refusal = ? AND coalesce(refused_at, 0) <= ?) ORDER BY id
            """, [.text(SyncRefusal.Reason.tooLarge.rawValue), .integer(Int64(clamping: retryingRefusedAt))]
        ).compactMap(attachment)
    }

    /// The attachments the server refused, by id, with its refusal.
    static func refused(_ sql: SQLRunner) throws -> [RefusedAttachment] {
        try sql.rows(
            "SELECT id, byte_count, content_type, refusal, refusal_message FROM boutique_sync_attachment_upload WHERE refusal IS NOT NULL ORDER BY id"
        ).compactMap { row in
            guard let attachment = attachment(row), let reason = row[3].textValue.flatMap(SyncRefusal.Reason.init(rawValue:)) else { return nil }
            return RefusedAttachment(attachment: attachment, refusal: SyncRefusal(reason: reason, message: row[4].textValue ?? ""))
        }
    }

    /// The ids of every queued attachment, refused or not: bytes this device may be the only one to hold.
    static func queued(_ sql: SQLRunner) throws -> Set<String> {
        Set(try sql.rows("SELECT id FROM boutique_sync_attachment_upload").compactMap { $0[0].textValue })
    }

    /// How many attachments wait to be uploaded, and how many the server refused.
    static func count(_ sql: SQLRunner) throws -> (waiting: Int, refused: Int) {
        let row = try sql.rows("SELECT count(*) - count(refusal), count(refusal) FROM boutique_sync_attachment_upload").first
        return (Int(row?[0].integerValue ?? 0), Int(row?[1].integerValue ?? 0))
    }

    /// Marks `id` refused by the server at `time` (milliseconds since 1970): kept, and not sent again
    /// before its time comes (``waiting(_:retryingRefusedAt:)``).
    static func markRefused(_ id: String, _ refusal: SyncRefusal, at time: UInt64, _ sql: SQLRunner) throws {
        try sql.run(
            "UPDATE boutique_sync_attachment_upload SET refusal = ?, refusal_message = ?, refused_at = ? WHERE id = ?",
            [.text(refusal.reason.rawValue), .text(refusal.message), .integer(Int64(clamping: time)), .text(id)])
    }

    private static func attachment(_ row: [DatabaseValue]) -> Attachment? {
        guard let id = row[0].textValue, let count = row[1].integerValue, let type = row[2].textValue else { return nil }
        return try? Attachment(id: id, byteCount: count, contentType: type)
    }

    static func remove(_ id: String, _ sql: SQLRunner) throws {
        try sql.run("DELETE FROM boutique_sync_attachment_upload WHERE id = ?", [.text(id)])
    }

    /// Removes `id` from the queue of a file set up for sync (a file that never was has no queue):
    /// bytes fetched from the server, which holds them whole.
    static func confirm(_ id: String, _ conn: DatabaseConnection) throws {
        let sql = SQLRunner(conn)
        guard try sql.value("SELECT count(*) FROM sqlite_schema WHERE name = 'boutique_sync_attachment_upload'")?.integerValue == 1 else { return }
        try remove(id, sql)
    }
}
