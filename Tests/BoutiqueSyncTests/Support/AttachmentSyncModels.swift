import BoutiqueSync
import Foundation

/// BoutiqueDB's attachment value under a name Swift Testing's own `Attachment` does not shadow, for the
/// test files that import `Testing`.
typealias StoredAttachment = Attachment

/// A synced table with an attachment column, as a model: sync learns from it that `image` holds
/// attachments.
@Table("photo")
struct SyncPhoto: Sendable, Equatable {
    @Column(primaryKey: true) let id: String
    var caption: String
    var image: Attachment
}

/// The `photo` table's migration.
enum SyncPhotoSchema {
    static let plan = BoutiqueMigrationPlan {
        BoutiqueMigration("v1_photos") { conn in
            try conn.execute("CREATE TABLE photo(id TEXT PRIMARY KEY NOT NULL, caption TEXT NOT NULL, image TEXT NOT NULL)")
        }
    }
}
