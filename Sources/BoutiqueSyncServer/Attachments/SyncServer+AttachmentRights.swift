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
        try await store.read(tenant: tenant) { store in try Self.user(user, mayRead: id, in: store) }
    }

    /// Whether `user` may read the attachment `id`, in `store`'s transaction: an uploader of it, or a
    /// member of a space a live row with a vouched pointer to it is in.
    static func user(_ user: String, mayRead id: String, in store: any SyncStoreTransaction) throws -> Bool {
        if try store.isUploader(user, of: id) { return true }
        var spaces: Set<SyncSpace> = [.common, .private(user: user)]
        spaces.formUnion(try store.memberships(of: user, at: nil).keys)
        return try store.isAttachment(id, pointedAtFrom: spaces.sorted())
    }

    /// Records that `user` of `tenant` uploaded the attachment `id` whole: they may read it before any
    /// row of theirs points at it (and after).
    public func noteUpload(of id: String, by user: String, tenant: String) async throws {
        try await store.transaction(tenant: tenant) { store in try store.noteUploader(user, of: id) }
    }

    /// Removes from `bytes` the attachments of `tenant` whose last row let go of them more than
    /// `retentionMilliseconds` ago (by the server's clock), and uploads in progress untouched as long;
    /// returns how many attachments went and their bytes.
    ///
    /// ```swift
    /// let (count, freed) = try await server.collectAttachments(tenant: "acme", in: attachments, retentionMilliseconds: 30 * 86_400_000)
    /// ```
    ///
    /// Never bytes a live row points at, nor bytes that changed within the retention. A whole
    /// attachment goes only once a row that pointed at it let go of it (a release recorded): one no row
    /// was ever recorded pointing at is kept, because the server cannot tell it from one a row points
    /// at unseen (a row pushed by a device that did not describe its attachment columns records no
    /// pointer), and keeping bytes costs space where removing them loses a photo. A row that comes to
    /// point at bytes after they went has its writer's device upload them again: writing the row
    /// queues the upload there.
    public func collectAttachments(
        tenant: String, in bytes: any SyncAttachmentStore, retentionMilliseconds: UInt64
    ) async throws -> (attachments: Int, bytes: Int64) {
        let wall = wallClock()
        guard wall > retentionMilliseconds else { return (0, 0) }
        let cutoff = wall - retentionMilliseconds
        var removed = 0
        var freed: Int64 = 0
        for candidate in try await bytes.attachments(tenant: tenant, unchangedBefore: cutoff) {
            let collectable = try await store.transaction(tenant: tenant) { store in
                let standing = try store.attachmentStanding(candidate.id)
                if standing.isPointedAt { return false }
                if candidate.isWhole {
                    guard let releasedAt = standing.releasedAt, releasedAt < cutoff else { return false }
                } else if let releasedAt = standing.releasedAt, releasedAt >= cutoff {
                    return false
                }
                try store.forgetAttachment(candidate.id)
                return true
            }
            guard collectable else { continue }
            // Asked again once the bytes are out of sight: a push may have come to point at them since.
            freed += try await bytes.remove(candidate.id, tenant: tenant, unchangedBefore: cutoff) { [store] in
                try await store.read(tenant: tenant) { store in try store.attachmentStanding(candidate.id).isPointedAt }
            }
            removed += 1
        }
        return (removed, freed)
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
