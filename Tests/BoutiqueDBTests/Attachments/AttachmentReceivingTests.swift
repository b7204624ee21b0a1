import BoutiqueDB
import Foundation
import Testing

/// Bytes received a piece at a time and hashed as they are appended: checked against the id whether
/// the transfer was whole, resumed from a killed one, or shared with another process's.
@Suite struct AttachmentReceivingTests {
    /// A fresh folder, and 3 MiB of bytes with their id.
    static func setUp() throws -> (AttachmentFolder, [UInt8], String) {
        let folder = AttachmentFolder(path: FileManager.default.temporaryDirectory.appendingPathComponent("receiving-\(UUID())").path)
        let block = (0..<4_096).map { _ in UInt8.random(in: 0...255) }
        var bytes = [UInt8]()
        for index in 0..<768 { bytes += block.map { $0 &+ UInt8(truncatingIfNeeded: index) } }
        let hasher = try #require(SHA256Hasher())
        hasher.update(bytes)
        return (folder, bytes, SHA256Hasher.hex(try #require(hasher.finalize())))
    }

    static func append(_ bytes: ArraySlice<UInt8>, to receiving: AttachmentFolder.Receiving, at offset: Int64) throws -> Int64 {
        try bytes.withUnsafeBytes { try receiving.append($0, at: offset) }
    }

    @Test func piecesAppendedInTurnArePublishedUnderTheirID() throws {
        let (folder, bytes, id) = try Self.setUp()
        defer { try? FileManager.default.removeItem(atPath: folder.path) }
        let size = Int64(bytes.count)
        let receiving = try folder.receiving(id, byteCount: size)
        #expect(receiving.held == 0)
        var held: Int64 = 0
        for start in stride(from: 0, to: bytes.count, by: 1 << 20) {
            held = try Self.append(bytes[start..<start + (1 << 20)], to: receiving, at: held)
        }
        #expect(held == size)
        try receiving.publish()
        #expect(folder.storedSize(of: id) == size)
        #expect(try folder.readRange(of: id, offset: 0, length: bytes.count) == bytes)
        #expect(folder.transferredLength(of: id, byteCount: size) == 0, "the transfer's file became the attachment")
    }

    @Test func aTransferResumedAfterAKillIsCheckedWithWhatTheKilledOneWrote() throws {
        let (folder, bytes, id) = try Self.setUp()
        defer { try? FileManager.default.removeItem(atPath: folder.path) }
        let size = Int64(bytes.count)
        // The killed transfer wrote the first 1.5 MiB.
        let first = try folder.receiving(id, byteCount: size)
        _ = try Self.append(bytes[..<(3 << 19)], to: first, at: 0)
        let resumed = try folder.receiving(id, byteCount: size)
        #expect(resumed.held == 3 << 19)
        #expect(try Self.append(bytes[(3 << 19)...], to: resumed, at: resumed.held) == size)
        try resumed.publish()
        #expect(try folder.readRange(of: id, offset: 0, length: bytes.count) == bytes)
    }

    @Test func aTransferAnotherProcessAppendedToIsCheckedWhole() throws {
        let (folder, bytes, id) = try Self.setUp()
        defer { try? FileManager.default.removeItem(atPath: folder.path) }
        let size = Int64(bytes.count)
        let receiving = try folder.receiving(id, byteCount: size)
        var held = try Self.append(bytes[..<(1 << 20)], to: receiving, at: 0)
        // Another process appends the next MiB: this transfer's piece for that offset is not written,
        // and it goes on from where the file stands.
        let other = try bytes[(1 << 20)..<(2 << 20)].withUnsafeBytes { try folder.append($0, to: id, byteCount: size, at: 1 << 20) }
        #expect(other == 2 << 20)
        held = try Self.append(bytes[(1 << 20)..<(2 << 20)], to: receiving, at: held)
        #expect(held == 2 << 20)
        #expect(try Self.append(bytes[(2 << 20)...], to: receiving, at: held) == size)
        // The running hash missed the other process's MiB: the file is hashed whole, and is right.
        try receiving.publish()
        #expect(try folder.readRange(of: id, offset: 0, length: bytes.count) == bytes)
    }

    @Test func aTransferAnotherProcessBeganAgainUnderneathIsCheckedWhole() throws {
        let (folder, bytes, id) = try Self.setUp()
        defer { try? FileManager.default.removeItem(atPath: folder.path) }
        let size = Int64(bytes.count)
        let receiving = try folder.receiving(id, byteCount: size)
        _ = try Self.append(bytes[..<(1 << 20)], to: receiving, at: 0)
        // Another process removes the transfer (it found it damaged) and begins it again, with bytes
        // that are not the attachment's, as far as this one stands.
        folder.discardResumed(id, byteCount: size)
        var wrong = Array(bytes[..<(1 << 20)])
        wrong[7] ^= 0xff
        let other = try wrong.withUnsafeBytes { try folder.append($0, to: id, byteCount: size, at: 0) }
        #expect(other == 1 << 20)
        // This transfer's next pieces fit where the file stands; its running hash covers bytes the file
        // no longer holds, so the file is hashed whole, and found wrong.
        #expect(try Self.append(bytes[(1 << 20)...], to: receiving, at: 1 << 20) == size)
        Self.expectFoundDamaged(receiving, in: folder)
    }

    @Test func bytesThatAreNotTheIDsAreRemovedAndReportedDamaged() throws {
        let (folder, bytes, id) = try Self.setUp()
        defer { try? FileManager.default.removeItem(atPath: folder.path) }
        let size = Int64(bytes.count)
        var wrong = bytes
        wrong[12_345] ^= 0xff
        let receiving = try folder.receiving(id, byteCount: size)
        #expect(try Self.append(wrong[...], to: receiving, at: 0) == size)
        Self.expectFoundDamaged(receiving, in: folder)
    }

    /// Publishing `receiving` fails as damaged bytes, and leaves neither the attachment nor the transfer.
    static func expectFoundDamaged(
        _ receiving: AttachmentFolder.Receiving, in folder: AttachmentFolder, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(sourceLocation: sourceLocation) {
            try receiving.publish()
        } throws: { error in
            guard case BoutiqueError.attachmentDamaged(let damaged, let reason) = error else { return false }
            return damaged == receiving.id && reason.contains("not the attachment's")
        }
        #expect(folder.storedSize(of: receiving.id) == nil, sourceLocation: sourceLocation)
        #expect(
            folder.transferredLength(of: receiving.id, byteCount: receiving.byteCount) == 0, "the next transfer starts again from 0",
            sourceLocation: sourceLocation)
    }
}
