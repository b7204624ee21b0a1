import BoutiqueDB
import Foundation

/// The attachments a row points at: the values of its attachment columns that read as an
/// ``/BoutiqueDB/Attachment`` (its JSON, as an attachment column holds it).
///
/// ```swift
/// let ids = AttachmentPointers.ids(in: row.visibleValues, columns: shape.attachments ?? [])
/// ```
///
/// The server learns from them who may read an attachment's bytes (a user who sees a row pointing at
/// it), and a device which bytes a space that left took with it. A value that is not an attachment's
/// JSON (a column of JSON that holds something else, a damaged row) points at nothing.
public enum AttachmentPointers {
    /// The longest text read as an attachment: its JSON is an id, a size and a content type.
    static let maximumJSONBytes = 4_096

    /// The ids the values of `columns` point at (names compared lowercased, as sync sends them).
    public static func ids(in values: [String: DatabaseValue], columns: [String]) -> Set<String> {
        guard !columns.isEmpty, !values.isEmpty else { return [] }
        let wanted = Set(columns.map { $0.lowercased() })
        var ids: Set<String> = []
        for (column, value) in values where wanted.contains(column.lowercased()) {
            if let id = id(of: value) { ids.insert(id) }
        }
        return ids
    }

    /// The id of the attachment `value` holds, `nil` when it holds none.
    public static func id(of value: DatabaseValue) -> String? {
        guard case .text(let text) = value, text.utf8.count <= maximumJSONBytes, text.utf8.first == UInt8(ascii: "{") else { return nil }
        return (try? JSONDecoder().decode(Attachment.self, from: Data(text.utf8)))?.id
    }
}
