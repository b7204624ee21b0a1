import BoutiqueDB

/// Takes off the device the bytes of attachments that rows which left it (a space the user left, a row
/// moved where they cannot see it) pointed at, once no row the device keeps points at them: the server
/// no longer lets this user read them, and the device must not keep what the user may no longer see.
///
/// Bytes still queued for upload are kept (``AttachmentUploadQueue``): a device never removes bytes the
/// server has not confirmed. The check and the removal run in one write transaction, so that no row
/// of this database starts pointing at them in between.
enum AttachmentDeparture {
    /// Removes the stored bytes of those of `ids` nothing points at any more; returns their ids.
    @discardableResult
    static func removeBytes(of ids: Set<String>, database: DatabaseActor) async throws -> [String] {
        guard !ids.isEmpty, let folderURL = database.attachments.folderURL else { return [] }
        let folder = AttachmentFolder(path: folderURL.path)
        return try await database.write { conn in
            // Every row of every table, as the tool's inventory reads them: a copy of the value in a
            // table that does not sync keeps the bytes too.
            let kept = Set(try AttachmentReferences.all(in: conn).map(\.id)).union(try AttachmentUploadQueue.queued(SQLRunner(conn)))
            let removed = ids.filter { Attachment.isValidID($0) && !kept.contains($0) }.sorted()
            for id in removed { try folder.remove(id) }
            // What stays is no longer the server's to give back: never evicted by a budget.
            try ConfirmedAttachments.forgetEverywhere(ids, SQLRunner(conn))
            return removed
        }
    }
}
