/// What a store keeps to decide who may read an attachment's bytes: which rows point at each
/// attachment (learned from the attachment columns devices describe in their table shapes, see
/// ``/BoutiqueSync/SyncTableShape/attachments``), and which users uploaded it whole.
///
/// A user reads an attachment when a live row of a space they see points at it, or when they uploaded
/// it themselves; anyone else is answered as if the server held nothing. Ids, tables, keys and users
/// are bound values, never SQL.
public protocol SyncAttachmentRightsStoreTransaction {
    /// Records that the row (`table`, `key`) now points at the attachments `added` and no longer at
    /// those `removed`.
    func setAttachmentPointers(table: String, key: DatabaseValue, adding added: Set<String>, removing removed: Set<String>) throws
    /// Whether a live row of one of `spaces` points at the attachment `id`.
    func isAttachment(_ id: String, pointedAtFrom spaces: [SyncSpace]) throws -> Bool
    /// Records that `user` uploaded the attachment `id` whole (its bytes checked against the id).
    func noteUploader(_ user: String, of id: String) throws
    /// Whether ``noteUploader(_:of:)`` recorded `user` for `id`.
    func isUploader(_ user: String, of id: String) throws -> Bool
}
