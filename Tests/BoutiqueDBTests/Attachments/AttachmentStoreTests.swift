@testable import BoutiqueDB
import Foundation
import Testing

/// Storing, finding and reading attachments' bytes, and the checks that keep bad ids and damaged bytes out.
@Suite struct AttachmentStoreTests {
    private func open(_ directory: TemporaryDirectory) async throws -> DatabaseActor {
        try await DatabaseActor.open(url: directory.file("photos.db"), migrations: AttachmentModels.plan)
    }

    @Test func bytesFromMemoryAreNamedByTheirSHA256AndReadBack() async throws {
        let directory = try TemporaryDirectory()
        let database = try await open(directory)
        let attachment = try await database.attachments.store(Data("hello".utf8), contentType: "text/plain")
        #expect(attachment.id == AttachmentModels.helloID)
        #expect(attachment.byteCount == 5)
        #expect(attachment.contentType == "text/plain")
        #expect(database.attachments.folderURL?.path == directory.file("photos.db.attachments").path)

        let url = try #require(try await database.attachments.fileURL(for: attachment))
        #expect(url.path == directory.file("photos.db.attachments/\(AttachmentModels.helloID)").path)
        #expect(contents(of: url) == Data("hello".utf8))
        #expect(try await database.attachments.data(for: attachment) == Data("hello".utf8))
        #expect(try await database.attachments.state(of: attachment) == .local)

        let empty = try await database.attachments.store(Data(), contentType: "application/octet-stream")
        #expect(empty.id == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(try await database.attachments.data(for: empty) == Data())
        await database.close()
    }

    @Test func aStreamedFileIsTheSameAttachmentAsItsBytesFromMemoryAndIsStoredOnce() async throws {
        let directory = try TemporaryDirectory()
        let database = try await open(directory)
        // Several chunks and a partial one, so the streaming loop's every branch runs.
        let bytes = AttachmentModels.bytes(3 * AttachmentFolder.chunkSize + 12_345)
        let source = directory.file("movie.mp4")
        try bytes.write(to: source)

        let streamed = try await database.attachments.store(contentsOf: source, contentType: "video/mp4")
        let fromMemory = try await database.attachments.store(bytes, contentType: "video/mp4")
        let otherType = try await database.attachments.store(bytes, contentType: "application/octet-stream")
        #expect(streamed == fromMemory)
        #expect(streamed.byteCount == Int64(bytes.count))
        #expect(otherType.id == streamed.id && otherType != streamed, "same bytes, another value")
        #expect(AttachmentModels.names(in: database.attachments.folderURL) == [streamed.id], "one file, no partial ones")
        #expect(try await database.attachments.data(for: streamed) == bytes)

        let copy = directory.file("copy.mp4")
        try await database.attachments.copy(streamed, to: copy)
        #expect(contents(of: copy) == bytes)
        #expect(contents(of: source) == bytes, "the source is copied, not moved")
        await database.close()
    }

    @Test func manyStoresOfTheSameBytesAtOnceLeaveOneWholeFile() async throws {
        let directory = try TemporaryDirectory()
        let database = try await open(directory)
        let bytes = AttachmentModels.bytes(2 * AttachmentFolder.chunkSize + 99)
        let source = directory.file("scan.pdf")
        try bytes.write(to: source)
        let store = database.attachments
        let attachments = try await withThrowingTaskGroup(of: StoredAttachment.self) { group in
            for index in 0..<24 {
                group.addTask {
                    index.isMultiple(of: 2)
                        ? try await store.store(bytes, contentType: "application/pdf")
                        : try await store.store(contentsOf: source, contentType: "application/pdf")
                }
            }
            return try await group.reduce(into: [StoredAttachment]()) { $0.append($1) }
        }
        #expect(attachments.count == 24)
        #expect(Set(attachments).count == 1)
        let attachment = try #require(attachments.first)
        #expect(AttachmentModels.names(in: store.folderURL) == [attachment.id])
        #expect(try await store.data(for: attachment) == bytes)
        await database.close()
    }

    @Test func idsThatAreNotSHA256DigestsAreRefusedBeforeAnyFileIsTouched() async throws {
        let directory = try TemporaryDirectory()
        let database = try await open(directory)
        _ = try await database.attachments.store(Data("hello".utf8), contentType: "text/plain")
        // A file the bad ids would reach if they were used as paths.
        try Data("secret".utf8).write(to: directory.file("secret"))
        for id in ["../secret", "../../etc/passwd", "", String(repeating: "A", count: 64), AttachmentModels.helloID + "0",
                   String(AttachmentModels.helloID.dropLast()) + "/", String(AttachmentModels.helloID.dropLast()) + "g"] {
            #expect(throws: BoutiqueError.self) { try StoredAttachment(id: id, byteCount: 6, contentType: "text/plain") }
            #expect(!StoredAttachment.isValidID(id))
            let forged = StoredAttachment(validID: id, byteCount: 6, contentType: "text/plain")
            for attempt in 0..<4 {
                let error = await #expect(throws: BoutiqueError.self) {
                    switch attempt {
                    case 0: _ = try await database.attachments.fileURL(for: forged)
                    case 1: _ = try await database.attachments.data(for: forged)
                    case 2: _ = try await database.attachments.state(of: forged)
                    default: try await database.attachments.copy(forged, to: directory.file("out"))
                    }
                }
                guard case .invalidArgument(let message) = error else {
                    Issue.record("\(id): \(String(describing: error))")
                    continue
                }
                #expect(message.contains("not an attachment id"))
            }
        }
        #expect(!FileManager.default.fileExists(atPath: directory.file("out").path))
        let json = #"{"byteCount":6,"contentType":"text/plain","id":"../secret"}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(StoredAttachment.self, from: Data(json.utf8)) }
        #expect(throws: BoutiqueError.self) { try StoredAttachment(id: AttachmentModels.helloID, byteCount: -1, contentType: "") }
        await database.close()
    }

    @Test func damagedBytesAreReportedAndNeverReturned() async throws {
        let directory = try TemporaryDirectory()
        let database = try await open(directory)
        let bytes = AttachmentModels.bytes(AttachmentFolder.chunkSize + 10)
        let attachment = try await database.attachments.store(bytes, contentType: "image/png")
        let file = try #require(try await database.attachments.fileURL(for: attachment))

        // Same size, one byte changed: only the hash tells.
        var changed = bytes
        changed[500] ^= 0xff
        try changed.write(to: file)
        await expectDamaged { _ = try await database.attachments.data(for: attachment) }
        let copy = directory.file("copy.png")
        await expectDamaged { try await database.attachments.copy(attachment, to: copy) }
        #expect(!FileManager.default.fileExists(atPath: copy.path), "a damaged copy is not left behind")
        #expect(AttachmentModels.names(in: directory.url) == ["photos.db", "photos.db-shm", "photos.db-wal", "photos.db.attachments"])

        // Shorter: the size tells, without reading.
        try changed.prefix(100).write(to: file)
        await expectDamaged { _ = try await database.attachments.fileURL(for: attachment) }
        await expectDamaged { _ = try await database.attachments.data(for: attachment) }
        #expect(try await database.attachments.state(of: attachment) == .damaged)

        // Storing the bytes again puts the whole file back.
        _ = try await database.attachments.store(bytes, contentType: "image/png")
        #expect(try await database.attachments.data(for: attachment) == bytes)
        await database.close()
    }

    @Test func missingBytesAreNilFromFileURLAndATypedErrorFromData() async throws {
        let directory = try TemporaryDirectory()
        let database = try await open(directory)
        let attachment = try await database.attachments.store(Data("hello".utf8), contentType: "text/plain")
        try FileManager.default.removeItem(at: try #require(try await database.attachments.fileURL(for: attachment)))

        #expect(try await database.attachments.fileURL(for: attachment) == nil)
        #expect(try await database.attachments.state(of: attachment) == .missing)
        let error = await #expect(throws: BoutiqueError.self) { _ = try await database.attachments.data(for: attachment) }
        #expect(error == .attachmentNotFound(id: AttachmentModels.helloID))
        await #expect(throws: BoutiqueError.attachmentNotFound(id: AttachmentModels.helloID)) {
            try await database.attachments.copy(attachment, to: directory.file("out.txt"))
        }
        // A database that never stored anything has no folder yet, and nothing in it.
        let other = try await DatabaseActor.open(url: directory.file("other.db"))
        #expect(try await other.attachments.fileURL(for: attachment) == nil)
        #expect(try await other.attachments.list().isEmpty)
        await other.close()
        await database.close()
    }

    @Test func aFileThatCannotBeReadIsAFileSystemErrorAndStoresNothing() async throws {
        let directory = try TemporaryDirectory()
        let database = try await open(directory)
        let error = await #expect(throws: BoutiqueError.self) {
            _ = try await database.attachments.store(contentsOf: directory.file("absent.jpg"), contentType: "image/jpeg")
        }
        guard case .fileSystem(let path, _) = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(path == directory.file("absent.jpg").path)
        #expect(AttachmentModels.names(in: database.attachments.folderURL).isEmpty)
        await database.close()
    }

    @Test func anInMemoryDatabaseKeepsItsAttachmentsInATemporaryFolderRemovedWithIt() async throws {
        let database = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL())
        let attachment = try await database.attachments.store(Data("hello".utf8), contentType: "text/plain")
        #expect(try await database.attachments.data(for: attachment) == Data("hello".utf8))
        let folder = try #require(database.attachments.folderURL)
        #expect(FileManager.default.fileExists(atPath: folder.path))
        await database.close()
        #expect(!FileManager.default.fileExists(atPath: folder.path))

        let memory = try await DatabaseActor.open(url: try #require(URL(string: "file:attachments-memory?mode=memory&cache=shared")))
        #expect(memory.attachments.folderURL == nil)
        let error = await #expect(throws: BoutiqueError.self) {
            _ = try await memory.attachments.store(Data("hello".utf8), contentType: "text/plain")
        }
        guard case .invalidArgument(let message) = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(message.contains("inMemoryURL"))
        await memory.close()
    }

    private func expectDamaged(_ body: () async throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) async {
        let error = await #expect(throws: BoutiqueError.self, sourceLocation: sourceLocation) { try await body() }
        guard case .attachmentDamaged(let id, _) = error else {
            Issue.record("expected attachmentDamaged, got \(String(describing: error))", sourceLocation: sourceLocation)
            return
        }
        #expect(StoredAttachment.isValidID(id), sourceLocation: sourceLocation)
    }
}
