extension DatabaseActor {
    /// The database's attachments: store bytes, find and read them. See ``AttachmentStore``.
    ///
    /// ```swift
    /// let scan = try await database.attachments.store(contentsOf: pdfURL, contentType: "application/pdf")
    /// ```
    public nonisolated var attachments: AttachmentStore { AttachmentStore(database: self) }
}
