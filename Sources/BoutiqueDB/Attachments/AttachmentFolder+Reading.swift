import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading stored bytes back: every read checks them against the attachment's size and SHA-256, so
/// damaged bytes are reported, never returned.
extension AttachmentFolder {
    /// The bytes of `attachment`.
    ///
    /// - Throws: ``BoutiqueError/attachmentNotFound(id:)`` when they are not stored here,
    ///   ``BoutiqueError/attachmentDamaged(id:reason:)`` when the stored file is not them.
    func data(for attachment: Attachment) throws -> Data {
        let input = try openStored(attachment)
        defer { close(input) }
        var data = Data(count: Int(attachment.byteCount))
        let filled = try data.withUnsafeMutableBytes { buffer in
            var filled = 0
            while filled < buffer.count {
                let count = try Self.readSome(input, into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]), path: filePath(for: attachment.id))
                if count == 0 { break }
                filled += count
            }
            return filled
        }
        guard filled == data.count else { throw Self.sizeMismatch(attachment, found: Int64(filled)) }
        guard let digest = SHA256Hasher.digest(of: data) else {
            throw BoutiqueError.fileSystem(path: path, message: "OpenSSL could not compute a SHA-256")
        }
        guard SHA256Hasher.hex(digest) == attachment.id else { throw Self.hashMismatch(attachment) }
        return data
    }

    /// Copies the bytes of `attachment` to `destination`, one chunk at a time, and gives the copy its
    /// name only once its SHA-256 has been checked: a damaged file leaves nothing at `destination`.
    func copy(_ attachment: Attachment, to destination: String, isCancelled: () -> Bool) throws {
        let input = try openStored(attachment)
        defer { close(input) }
        let target = URL(fileURLWithPath: destination)
        let partial = target.deletingLastPathComponent()
            .appendingPathComponent(".\(target.lastPathComponent).partial-\(UUID().uuidString.lowercased())").path
        do {
            let (id, byteCount) = try write(.file(input), to: partial, isCancelled: isCancelled)
            guard byteCount == attachment.byteCount else { throw Self.sizeMismatch(attachment, found: byteCount) }
            guard id == attachment.id else { throw Self.hashMismatch(attachment) }
            guard rename(partial, destination) == 0 else { throw Self.failure(destination, "cannot be renamed into place") }
        } catch {
            unlink(partial)
            throw error
        }
    }

    /// The stored file of `attachment`, opened for reading, after a check of its size, and marked used.
    private func openStored(_ attachment: Attachment) throws -> Int32 {
        let file = filePath(for: attachment.id)
        let input = open(file, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else {
            if errno == ENOENT { throw BoutiqueError.attachmentNotFound(id: attachment.id) }
            throw Self.failure(file, "cannot be opened")
        }
        var status = stat()
        guard fstat(input, &status) == 0 else {
            close(input)
            throw Self.failure(file, "cannot be examined")
        }
        guard Int64(status.st_size) == attachment.byteCount else {
            close(input)
            throw Self.sizeMismatch(attachment, found: Int64(status.st_size))
        }
        Self.markUsed(descriptor: input)
        return input
    }

    static func sizeMismatch(_ attachment: Attachment, found: Int64) -> BoutiqueError {
        .attachmentDamaged(id: attachment.id, reason: "\(found) bytes stored, \(attachment.byteCount) expected")
    }

    static func hashMismatch(_ attachment: Attachment) -> BoutiqueError {
        .attachmentDamaged(id: attachment.id, reason: "the stored bytes' SHA-256 is not the attachment's id")
    }
}
