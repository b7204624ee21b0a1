import Foundation

/// The forms a root row's key may be stored in, for a key a user typed or an app passed: the server
/// does not know a key column's type, but a UUID reaches it as the device stores it — lowercase text
/// by default (`UUID.encode`), upper-case text from a column written with `uuidString`, or 16 bytes
/// (`UUID.BytesRepresentation`) — while people and `uuidString` write it in upper case.
///
/// ```swift
/// RootKeyForms.candidates(for: .text("0F8FAD5B-D9CB-469F-A165-70867728950E"))
/// // [.text("0F8FAD5B-…"), .text("0f8fad5b-…"), .blob(16 bytes)]
/// ```
enum RootKeyForms {
    /// `key` first (a key is always matched as it was sent first), then, for a UUID, its other
    /// stored forms.
    static func candidates(for key: DatabaseValue) -> [DatabaseValue] {
        let uuid: UUID?
        switch key {
        case .text(let text): uuid = UUID(uuidString: text)
        case .blob(let bytes) where bytes.count == 16:
            uuid = UUID(uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
        default: uuid = nil
        }
        guard let uuid else { return [key] }
        var forms = [key]
        let bytes = withUnsafeBytes(of: uuid.uuid) { Array($0) }
        for form in [DatabaseValue.text(uuid.uuidString.lowercased()), .text(uuid.uuidString), .blob(bytes)] where !forms.contains(form) {
            forms.append(form)
        }
        return forms
    }
}
