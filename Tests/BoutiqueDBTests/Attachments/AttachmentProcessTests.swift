@testable import BoutiqueDB
import BoutiqueTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Attachments across real processes: another process sees what one stored, a store killed midway
/// leaves no attachment, and streaming a large file stays within a bounded amount of memory.
@Suite struct AttachmentProcessTests {
    @Test func anotherProcessSeesTheAttachmentsOneStored() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("shared.db").path
        let database = try await DatabaseActor.open(url: URL(fileURLWithPath: path), options: .init(multiProcess: true))
        let bytes = AttachmentModels.bytes(AttachmentFolder.chunkSize * 2 + 7)
        try bytes.write(to: directory.file("scan.pdf"))

        let outcome = try await withTimeout(60) {
            try await Worker.run(["attachment-put", path, directory.file("scan.pdf").path, "application/pdf"])
        }
        #expect(outcome.succeeded, "\(outcome)")
        let fields = outcome.output.split(separator: " ")
        let id = try #require(fields.count == 3 ? String(fields[1]) : nil, "\(outcome)")
        #expect(fields.last == "\(bytes.count)")

        let attachment = try StoredAttachment(id: id, byteCount: Int64(bytes.count), contentType: "application/pdf")
        #expect(try await database.attachments.data(for: attachment) == bytes)
        #expect(try await database.attachments.list().map(\.id) == [id])
        // The other way round: what this process stores, the worker's store of the same bytes finds.
        let again = try await Worker.run(["attachment-put", path, directory.file("scan.pdf").path, "application/pdf"])
        #expect(again.output == outcome.output)
        #expect(AttachmentModels.names(in: database.attachments.folderURL) == [id])
        await database.close()
    }

    @Test func aStoreKilledMidwayLeavesNoAttachment() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("crash.db").path
        let pipe = directory.file("upload.pipe").path
        guard mkfifo(pipe, 0o600) == 0 else { throw BoutiqueError.fileSystem(path: pipe, message: "mkfifo failed") }
        // Opened for reading and writing, the pipe opens at once and holds what is written (less than
        // its 64 KiB) whether or not the worker has opened it yet; the worker reads it to its end, which
        // never comes.
        let writer = open(pipe, O_RDWR)
        #expect(writer >= 0)
        let bytes = AttachmentModels.bytes(60_000)
        #expect(bytes.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) } == bytes.count)
        let worker = try Worker.start(["attachment-put", path, pipe, "video/mp4"])

        // Wait until its partial file holds bytes, then kill it there.
        let folder = URL(fileURLWithPath: path + ".attachments")
        let partialHasBytes = try await withTimeout(60) {
            while true {
                for name in AttachmentModels.names(in: folder) where name.hasPrefix(".partial-") {
                    let size = (try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path))?[.size]
                    if let size = size as? NSNumber, size.intValue > 0 { return true }
                }
                try await Task.sleep(for: .milliseconds(10))
            }
        }
        #expect(partialHasBytes)
        worker.kill()
        #expect(await worker.status() != 0)
        close(writer)

        let names = AttachmentModels.names(in: folder)
        #expect(names.count == 1 && names.allSatisfy { $0.hasPrefix(".partial-") }, "\(names)")
        let database = try await DatabaseActor.open(url: URL(fileURLWithPath: path))
        #expect(try await database.attachments.list().isEmpty)
        // The bytes it had read are no attachment; storing them whole is.
        let partialBytes = try await database.attachments.store(bytes, contentType: "video/mp4")
        #expect(try await database.attachments.data(for: partialBytes) == bytes)
        #expect(try await database.attachments.list().map(\.id) == [partialBytes.id])
        await database.close()
    }

    @Test func aCancelledStoreRemovesItsPartialFile() async throws {
        let directory = try TemporaryDirectory()
        let database = try await DatabaseActor.open(url: directory.file("cancel.db"))
        let pipe = directory.file("upload.pipe").path
        guard mkfifo(pipe, 0o600) == 0 else { throw BoutiqueError.fileSystem(path: pipe, message: "mkfifo failed") }
        let writer = open(pipe, O_RDWR)
        defer { close(writer) }
        let chunk = AttachmentModels.bytes(60_000)
        #expect(chunk.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) } == chunk.count)
        let store = database.attachments
        let task = Task { try await store.store(contentsOf: URL(fileURLWithPath: pipe), contentType: "video/mp4") }

        let folder = try #require(store.folderURL)
        _ = try await withTimeout(60) {
            while true {
                for name in AttachmentModels.names(in: folder) where name.hasPrefix(".partial-") {
                    let size = (try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path))?[.size]
                    if let size = size as? NSNumber, size.intValue > 0 { return true }
                }
                try await Task.sleep(for: .milliseconds(10))
            }
        }
        task.cancel()
        // The store is blocked reading the pipe; the next bytes wake it, and it sees the cancellation.
        #expect(chunk.withUnsafeBytes { write(writer, $0.baseAddress, 1) } == 1)
        let result = try await withTimeout(60) { await task.result }
        #expect(throws: BoutiqueError.cancelled) { try result.get() }
        #expect(AttachmentModels.names(in: folder).isEmpty)
        await database.close()
    }

    @Test func streamingALargeFileKeepsMemoryBounded() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("large.db").path
        let source = directory.file("large.bin")
        // 300 MiB written a chunk at a time, so the test process never holds it either.
        let size = 300 * 1_024 * 1_024
        _ = FileManager.default.createFile(atPath: source.path, contents: nil)
        let handle = try FileHandle(forWritingTo: source)
        var chunk = AttachmentModels.bytes(AttachmentFolder.chunkSize)
        for index in 0..<(size / AttachmentFolder.chunkSize) {
            withUnsafeBytes(of: index) { chunk.replaceSubrange(0..<$0.count, with: $0) }  // no two chunks alike
            try handle.write(contentsOf: chunk)
        }
        try handle.close()

        try Data("tiny".utf8).write(to: directory.file("tiny.txt"))
        let small = try await Worker.start(["attachment-put", directory.file("small.db").path, directory.file("tiny.txt").path, "text/plain", "--report-peak"]).exit()
        let large = try await Worker.start(["attachment-put", path, source.path, "application/octet-stream", "--report-peak"]).exit()
        // "ok ID BYTES PEAK"
        let fields = large.output.split(separator: " ")
        #expect(fields.first == "ok" && fields.count == 4 && fields[2] == "\(size)", "\(large.output)")
        // A worker that stores a tiny file is the baseline; streaming adds about a chunk, not the file.
        // Each worker says its own peak: the one wait4 reports also counts this test process's peak.
        let smallPeak = try #require(Self.peak(in: small.output), "\(small.output)")
        let largePeak = try #require(Self.peak(in: large.output), "\(large.output)")
        #expect(smallPeak > 0 && largePeak - smallPeak < 64 * 1_024 * 1_024, "peak \(largePeak) bytes, baseline \(smallPeak)")
        let stored = directory.file("large.db.attachments/\(large.output.split(separator: " ")[1])")
        #expect((try FileManager.default.attributesOfItem(atPath: stored.path)[.size] as? NSNumber)?.intValue == size)
    }

    /// The peak a worker asked to report it printed last, after the attachment's id and size.
    static func peak(in output: String) -> Int? {
        output.split(separator: " ").last.flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }
}
