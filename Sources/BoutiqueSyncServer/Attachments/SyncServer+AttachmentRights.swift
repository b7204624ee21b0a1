/// Who may read an attachment's bytes (DESIGN section 14, "Rights"): a user who sees a row that points
/// at it (by the same spaces their pulls follow) or who uploaded it whole. The HTTP front end answers
/// everyone else as it answers for an attachment the server does not hold, so that a hash tells an
/// outsider nothing.
extension SyncServer {
    /// Whether `user` of `tenant` may read the attachment `id`: a live row of a space they are a
    /// member of (the common space, their private space, a shared space with any role) points at it,
    /// or they uploaded it.
    ///
    /// ```swift
    /// guard try await server.mayRead(attachment: id, user: claims.user, tenant: claims.tenant) else { return notFound }
    /// ```
    public func mayRead(attachment id: String, user: String, tenant: String) async throws -> Bool {
        try await store.read(tenant: tenant) { store in
            if try store.isUploader(user, of: id) { return true }
            var spaces: Set<SyncSpace> = [.common, .private(user: user)]
            spaces.formUnion(try store.memberships(of: user, at: nil).keys)
            return try store.isAttachment(id, pointedAtFrom: spaces.sorted())
        }
    }

    /// Records that `user` of `tenant` uploaded the attachment `id` whole: they may read it before any
    /// row of theirs points at it (and after).
    public func noteUpload(of id: String, by user: String, tenant: String) async throws {
        try await store.transaction(tenant: tenant) { store in try store.noteUploader(user, of: id) }
    }

    /// The columns that hold attachments in `shapes`, by lowercased table.
    static func attachmentColumns(of shapes: [String: SyncTableShape]) -> [String: [String]] {
        var columns: [String: [String]] = [:]
        for (table, shape) in shapes {
            if let attachments = shape.attachments, !attachments.isEmpty { columns[table.lowercased()] = attachments }
        }
        return columns
    }
}
