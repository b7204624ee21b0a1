import BoutiqueDB
import Foundation

// The listings of the Attachments article.

public enum AttachmentsArticle {
    @Table struct Photo: Sendable {
        @Column(primaryKey: true) let id: UUID
        var caption: String
        var image: Attachment
        var thumbnail: Attachment?
    }

    enum AppMigrations {
        static let plan = BoutiqueMigrationPlan {
            BoutiqueMigration("v1_create_photos") { conn in
                try conn.execute("""
                    CREATE TABLE photo (id TEXT PRIMARY KEY NOT NULL, caption TEXT NOT NULL,
                                        image TEXT NOT NULL, thumbnail TEXT)
                    """)
            }
        }
    }

    /// Stores a photo's bytes and a video's, writes the row, reads the bytes back and lists what is
    /// stored; returns the bytes read and the number of entries.
    @MainActor
    public static func storeAndRead(jpegData: Data, movieURL: URL) async throws -> (bytes: Data, entries: Int) {
        let db = try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: AppMigrations.plan)
        let image = try await db.attachments.store(jpegData, contentType: "image/jpeg")
        let video = try await db.attachments.store(contentsOf: movieURL, contentType: "video/mp4")
        try await db.write { conn in
            try Photo.insert { Photo(id: UUID(), caption: "Beach", image: image, thumbnail: nil) }.execute(conn)
        }
        _ = video
        let photo = try await db.read { conn in try Photo.all.fetchOne(conn) }
        guard let photo else { return (Data(), 0) }
        let bytes = try await read(photo, from: db)
        let entries = try await list(db)
        await db.close()
        return (bytes, entries)
    }

    @MainActor
    static func read(_ photo: Photo, from db: BoutiqueDB) async throws -> Data {
        if let url = try await db.attachments.fileURL(for: photo.image) {
            print("show", url.path)
        }
        let bytes = try await db.attachments.data(for: photo.image)
        return bytes
    }

    @MainActor
    static func list(_ db: BoutiqueDB) async throws -> Int {
        for entry in try await db.attachments.list() {
            print(entry.id, entry.byteCount, entry.contentType ?? "-", entry.state)
        }
        return try await db.attachments.list().count
    }
}
