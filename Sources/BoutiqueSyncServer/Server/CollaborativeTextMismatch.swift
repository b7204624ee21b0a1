/// Thrown when a push describes a table whose collaborative text columns differ from the ones the
/// tenant's devices described before: the push is refused (``/BoutiqueSync/SyncRefusal/Reason/invalid``)
/// and nothing of it stored, so that no device merges as text what another overwrites whole.
///
/// A table first described with none may gain some (the app's update that makes a column
/// collaborative); once a tenant's devices named some, every device must name the same.
struct CollaborativeTextMismatch: Error {
    let reason: String

    /// The mismatch between a pushed shape and the one the store holds, if any.
    static func check(_ pushed: SyncTableShape, against known: SyncTableShape?) -> CollaborativeTextMismatch? {
        guard let known = known?.collaborativeText, pushed.collaborativeText != known else { return nil }
        let named = pushed.collaborativeText.map { $0.joined(separator: ", ") } ?? "none"
        return CollaborativeTextMismatch(
            reason: "table '\(pushed.table.prefix(100))' has collaborative text columns \(known.joined(separator: ", ")) on this server; this device names \(named.prefix(200))")
    }
}
