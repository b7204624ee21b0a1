import BoutiqueSync
import Foundation

// The sync listing of the Attachments article.

public enum AttachmentsSyncListing {
    @Table struct Photo: Sendable {
        @Column(primaryKey: true) let id: UUID
        var caption: String
        var image: Attachment
        var thumbnail: Attachment?
    }

    @MainActor
    static func fetchPhoto(_ photo: Photo, db: BoutiqueDB, url: URL, token: String) async throws -> URL? {
        let sync = try await BoutiqueSync(database: db, tables: [Photo.self], server: .http(url, token: token),
                                          options: SyncOptions(attachments: .onDemand))   // the default
        try await sync.attachments.fetch(photo.image)       // returns once the bytes are here, checked
        let file = try await db.attachments.fileURL(for: photo.image)
        for await p in sync.attachments.progress {          // AttachmentProgress: id, direction, bytesDone, byteCount
            print(p.id, p.direction, p.bytesDone, p.byteCount)
        }
        return file
    }

    /// A device that fetches photos up to 5 MB each and keeps at most 500 MB of what the server holds.
    static func boundedSync(db: BoutiqueDB, url: URL, token: String) async throws -> BoutiqueSync {
        let sync = try await BoutiqueSync(database: db, tables: [Photo.self], server: .http(url, token: token),
                                          options: SyncOptions(attachments: .eager(maxBytes: 5_000_000),
                                                               attachmentCacheBytes: 500_000_000))
        return sync
    }
}
