extension DatabaseActor {
    /// The database's attachments: store bytes, find and read them. See ``AttachmentStore``.
    ///
    /// ```swift
    /// let scan = try await database.attachments.store(contentsOf: pdfURL, contentType: "application/pdf")
    /// ```
    public nonisolated var attachments: AttachmentStore { AttachmentStore(database: self) }
}

extension BoutiqueDB {
    /// The database's attachments: store bytes, find and read them. See ``AttachmentStore``.
    ///
    /// ```swift
    /// let image = try await db.attachments.store(jpegData, contentType: "image/jpeg")
    /// let url = try await db.attachments.fileURL(for: image)
    /// ```
    public nonisolated var attachments: AttachmentStore { databaseActor.attachments }
}
