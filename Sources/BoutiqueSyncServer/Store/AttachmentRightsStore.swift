/// What a store keeps to decide who may read an attachment's bytes: which rows point at each
/// attachment (learned from the attachment columns devices describe in their table shapes, see
/// ``/BoutiqueSync/SyncTableShape/attachments``), and which users uploaded it whole.
///
/// It also keeps when an attachment lost the last row that pointed at it, so that garbage collection
/// removes only bytes no row has pointed at for the retention period.
///
/// A user reads an attachment when a live row of a space they see points at it, and that pointer was
/// vouched for, or when they uploaded it themselves; anyone else is answered as if the server held
/// nothing. A pointer is vouched for when its writer could read the attachment when they wrote it, or
/// once they upload it whole: an id alone (which a former member or a log may have shown) written
/// into a row of one's own opens nothing. Ids, tables, keys and users are bound values, never SQL.
public protocol SyncAttachmentRightsStoreTransaction {
    /// Records that the row (`table`, `key`) now points at the attachments `added` and no longer at
    /// those `removed`; one of `removed` no row points at any more was released at `time` (server
    /// milliseconds). The pointers added are `writer`'s, vouched for when in `vouched`.
    func setAttachmentPointers(
        table: String, key: DatabaseValue, adding added: Set<String>, removing removed: Set<String>, at time: UInt64,
        writer: String?, vouched: Set<String>) throws
    /// Whether a live row of one of `spaces` points at the attachment `id`, with a pointer vouched for.
    func isAttachment(_ id: String, pointedAtFrom spaces: [SyncSpace]) throws -> Bool
    /// Records that `user` uploaded the attachment `id` whole (its bytes checked against the id), and
    /// vouches for the pointers to it that `user` wrote.
    func noteUploader(_ user: String, of id: String) throws
    /// Whether ``noteUploader(_:of:)`` recorded `user` for `id`.
    func isUploader(_ user: String, of id: String) throws -> Bool

    /// Whether any live row points at `id`, when the last one stopped (`nil`: never recorded), and
    /// whether the store knows the attachment at all (an uploader or a release recorded): what garbage
    /// collection asks before it removes bytes.
    func attachmentStanding(_ id: String) throws -> (isPointedAt: Bool, releasedAt: UInt64?, isKnown: Bool)
    /// Forgets the uploaders and the release of `id`, whose bytes are being removed.
    func forgetAttachment(_ id: String) throws
}
