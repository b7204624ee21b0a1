import BoutiqueDB
import Foundation
import Testing

/// `Attachment` as a column of a `@Table`: what a row stores, and every statement it goes through.
@Suite struct AttachmentColumnTests {
    @Test func attachmentsRoundTripThroughInsertSelectWhereUpdateAndDraft() async throws {
        let db = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: AttachmentModels.plan)
        let image = try await db.attachments.store(Data("hello".utf8), contentType: "image/jpeg")
        let thumbnail = try await db.attachments.store(Data("hi".utf8), contentType: "image/jpeg")
        let id = UUID()
        let photo = Photo(id: id, caption: "Beach", image: image, thumbnail: nil)
        try await db.write { conn in try Photo.insert { photo }.execute(conn) }

        // The row holds the value's JSON, keys sorted, and never the bytes.
        let stored = try await db.read { conn in try conn.fetchOne("SELECT image, thumbnail, typeof(image) FROM photo") }
        #expect(stored?[0] == .text(#"{"byteCount":5,"contentType":"image/jpeg","id":"\#(AttachmentModels.helloID)"}"#))
        #expect(stored?[1] == .null)
        #expect(stored?[2] == .text("text"))
        #expect(try await db.read { conn in try Photo.all.fetchAll(conn) } == [photo])
        #expect(try await db.read { conn in try Photo.where { $0.image == image }.fetchAll(conn) } == [photo])
        #expect(try await db.read { conn in try Photo.where { $0.image == thumbnail }.fetchCount(conn) } == 0)
        #expect(try await db.read { conn in try Photo.where { $0.thumbnail == nil }.fetchCount(conn) } == 1)
        let sizes = try await db.read { conn in try conn.fetchValue("SELECT json_extract(image, '$.byteCount') FROM photo") }
        #expect(sizes == .integer(5))

        try await db.write { conn in try Photo.where { $0.id == id }.update { $0.thumbnail = thumbnail }.execute(conn) }
        let updated = try await db.read { conn in try Photo.where { $0.thumbnail == thumbnail }.fetchOne(conn) }
        #expect(updated?.thumbnail == thumbnail)
        #expect(updated?.image == image)

        try await db.write { conn in
            try Album.insert { Album.Draft(cover: image, back: nil) }.execute(conn)
            try Album.insert { Album.Draft(cover: thumbnail, back: image) }.execute(conn)
        }
        let albums = try await db.read { conn in try Album.all.order { $0.id.asc() }.fetchAll(conn) }
        #expect(albums.map(\.cover) == [image, thumbnail])
        #expect(albums.map(\.back) == [nil, image])
        #expect(try await db.read { conn in try Album.where { $0.back == image }.fetchCount(conn) } == 1)
        await db.close()
    }

    @Test func aStoredValueWithABadIDIsADecodingErrorNamingTheColumn() async throws {
        let db = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: AttachmentModels.plan)
        try await db.write { conn in
            try conn.execute(
                "INSERT INTO photo VALUES ('0f8fad5b-d9cb-469f-a165-70867728950e', 'x', ?, NULL)",
                [.text(#"{"byteCount":6,"contentType":"text/plain","id":"../../etc/passwd"}"#)])
        }
        let error = await #expect(throws: BoutiqueError.self) { _ = try await db.read { conn in try Photo.all.fetchAll(conn) } }
        guard case .decoding(let failure) = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(failure.column == "image")
        await db.close()
    }

    @Test func listShowsEveryReferencedAndStoredAttachmentWithItsState() async throws {
        let directory = try TemporaryDirectory()
        let db = try await DatabaseActor.open(url: directory.file("list.db"), migrations: AttachmentModels.plan)
        let image = try await db.attachments.store(Data("hello".utf8), contentType: "image/jpeg")
        let unreferenced = try await db.attachments.store(Data("loose".utf8), contentType: "text/plain")
        let missing = try StoredAttachment(id: String(repeating: "ab", count: 32), byteCount: 9, contentType: "audio/mp4")
        try await db.write { conn in
            try Photo.insert {
                Photo(id: UUID(), caption: "one", image: image, thumbnail: missing)
                Photo(id: UUID(), caption: "two", image: image, thumbnail: nil)
            }.execute(conn)
            // Text that looks like JSON but is no attachment is not listed.
            try conn.execute("INSERT INTO album(cover) VALUES ('{\"id\": 1}'), ('{not json')")
        }
        let entries = try await db.attachments.list()
        #expect(
            entries == [
                AttachmentEntry(id: image.id, byteCount: 5, contentType: "image/jpeg", state: .local, isReferenced: true),
                AttachmentEntry(id: unreferenced.id, byteCount: 5, contentType: nil, state: .local, isReferenced: false),
                AttachmentEntry(id: missing.id, byteCount: 9, contentType: "audio/mp4", state: .missing, isReferenced: true),
            ].sorted { $0.id < $1.id })
        await db.close()
    }
}
