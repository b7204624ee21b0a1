import BoutiqueDB
import Foundation

/// The attachments tests' models: an attachment column and an optional one, keyed by a UUID and by
/// an integer (whose `Draft` leaves the key to SQLite).
@Table
struct Photo: Sendable, Equatable {
    @Column(primaryKey: true) let id: UUID
    var caption: String
    var image: Attachment
    var thumbnail: Attachment?
}

@Table
struct Album: Sendable, Equatable {
    @Column(primaryKey: true) let id: Int
    var cover: Attachment
    var back: Attachment?
}

/// BoutiqueDB's attachment value, under a name Swift Testing's own `Attachment` type does not share:
/// in a file that imports both modules, `Attachment` is ambiguous.
typealias StoredAttachment = Attachment

enum AttachmentModels {
    static let plan = BoutiqueMigrationPlan {
        BoutiqueMigration("v1_photos") { conn in
            try conn.execute(
                """
                CREATE TABLE photo(id TEXT PRIMARY KEY NOT NULL, caption TEXT NOT NULL, image TEXT NOT NULL, thumbnail TEXT);
                CREATE TABLE album(id INTEGER PRIMARY KEY, cover TEXT NOT NULL, back TEXT);
                """)
        }
    }

    /// The SHA-256 of `hello` (from `printf hello | sha256sum`).
    static let helloID = "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824"

    /// `count` bytes that are not all alike, the same for the same `seed`.
    static func bytes(_ count: Int, seed: UInt8 = 7) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed) &+ $0 >> 11) })
    }

    /// The names in `folder` (none when it does not exist).
    static func names(in folder: URL?) -> [String] {
        guard let folder else { return [] }
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }
}
