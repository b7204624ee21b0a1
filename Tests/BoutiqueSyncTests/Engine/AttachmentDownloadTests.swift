import BoutiqueDB
import BoutiqueSQLite
import BoutiqueSync
import BoutiqueSyncCore
import Foundation
import Testing

/// A download through ``AttachmentTransfer``, which asks for the next range while it writes the last:
/// cancelled, it stops, range in flight included, and what it wrote is kept for the next fetch.
@Suite struct AttachmentDownloadTests {
    /// A server holding `bytes` whole, whose ranges past the first are held back until their request
    /// is cancelled (or an hour passes).
    final class StallingChannel: AttachmentChannel {
        let bytes: Data
        let attachmentServerAddress = "http://127.0.0.1:1/"
        /// The offsets asked for, and how many requests were cancelled.
        let asked = Lock<[Int64]>([])
        let cancelled = Lock(0)

        init(bytes: Data) { self.bytes = bytes }

        func uploadState(of attachment: StoredAttachment) async throws -> AttachmentUploadState {
            throw BoutiqueError.syncUnavailable(reason: "this channel only serves ranges")
        }

        func sendPiece(_ piece: Data, of attachment: StoredAttachment, at offset: Int64) async throws -> AttachmentUploadState? {
            throw BoutiqueError.syncUnavailable(reason: "this channel only serves ranges")
        }

        func range(of id: String, offset: Int64, length: Int) async throws -> AttachmentRange {
            asked.withLock { $0.append(offset) }
            if offset > 0 {
                do {
                    try await Task.sleep(for: .seconds(3_600))
                } catch {
                    cancelled.withLock { $0 += 1 }
                    throw error
                }
            }
            let end = min(Int(offset) + length, bytes.count)
            return .bytes(bytes.subdata(in: Int(offset)..<end))
        }
    }

    @Test func aCancelledDownloadStopsWithTheRangeInFlightAndKeepsWhatItWrote() async throws {
        let directory = try SyncTemporaryDirectory()
        let database = try await DatabaseActor.open(url: directory.url.appendingPathComponent("device.db"))
        // Three ranges' worth of bytes, stored on another database to have their attachment value.
        let source = try await DatabaseActor.open(url: directory.url.appendingPathComponent("source.db"))
        var bytes = Data(count: AttachmentTransfer.pieceBytes * 5 / 2)
        bytes.withUnsafeMutableBytes { buffer in
            for index in stride(from: 0, to: buffer.count, by: 4_096) { buffer[index] = UInt8(truncatingIfNeeded: index >> 12) }
        }
        let attachment = try await source.attachments.store(bytes, contentType: "application/octet-stream")
        let channel = StallingChannel(bytes: bytes)
        let transfer = try AttachmentTransfer(transport: channel, attachments: database.attachments)
        let written = Lock<Int64>(0)
        let ended = Lock<Result<Int64, any Error>?>(nil)
        let download = Task {
            let result: Result<Int64, any Error>
            do {
                result = .success(try await transfer.download(attachment) { held in written.withLock { $0 = held } })
            } catch {
                result = .failure(error)
            }
            ended.withLock { $0 = result }
        }
        // Once the first range is written, the second is in flight, held back: cancel the download.
        try await waitUntil("the first range is written") { written.withLock { $0 } == Int64(AttachmentTransfer.pieceBytes) }
        try await waitUntil("the second range is asked for") { channel.asked.withLock { $0.count } == 2 }
        download.cancel()
        // A download that went on past its cancellation would not end here: the range is held back an
        // hour.
        try await waitUntil("the download ends once cancelled") { ended.withLock { $0 != nil } }
        let outcome = try #require(ended.withLock { $0 })
        #expect(throws: CancellationError.self) { try outcome.get() }
        #expect(channel.cancelled.withLock { $0 } == 1, "the range in flight was cancelled with the download")
        #expect(channel.asked.withLock { $0 } == [0, Int64(AttachmentTransfer.pieceBytes)])
        #expect(try await database.attachments.state(of: attachment) == .missing)
        let folder = try #require(database.attachments.folderURL)
        #expect(AttachmentFolder(path: folder.path).transferredLength(of: attachment.id, byteCount: attachment.byteCount)
            == Int64(AttachmentTransfer.pieceBytes), "what was written is kept for the next fetch")
        await database.close()
        await source.close()
    }
}
