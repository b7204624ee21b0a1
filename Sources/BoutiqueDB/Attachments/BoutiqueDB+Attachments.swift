extension BoutiqueDB {
    /// The database's attachments: store bytes, find and read them. See ``AttachmentStore``.
    ///
    /// ```swift
    /// let image = try await db.attachments.store(jpegData, contentType: "image/jpeg")
    /// let url = try await db.attachments.fileURL(for: image)
    /// ```
    public nonisolated var attachments: AttachmentStore { databaseActor.attachments }
}
