import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Bytes that arrive in pieces (an upload on the server, a download on a device): appended at the
/// offset already held to a `.resume-ID-SIZE` file (`.resume-ID-SIZE-OWNER` for a transfer that is
/// one owner's, as an upload on a server is its user's), which outlives a killed process, and
/// published under the id only once the whole file's SHA-256 is checked.
///
/// ```swift
/// var held = folder.heldOffset(of: id, byteCount: size)            // 0, or where a killed transfer stopped
/// held = try folder.append(piece, to: id, byteCount: size, at: held) ?? held
/// if held == size { try folder.publishResumed(id, byteCount: size) } // checked, then renamed to its id
/// ```
///
/// A `.resume-` name is never an id, so a half-transferred file is never read as the attachment.
extension AttachmentFolder {
    /// The file that collects the bytes of `id` (of `byteCount` bytes) until they are whole.
    ///
    /// - Parameter owner: whose transfer it is, when transfers of the same bytes by different owners
    ///   must stay apart (a name of hexadecimal digits, never a path of its own); nil for the folder's
    ///   only one.
    package func resumePath(for id: String, byteCount: Int64, owner: String? = nil) -> String {
        path + "/.resume-" + id + "-" + String(byteCount) + (owner.map { "-" + $0 } ?? "")
    }

    /// How many bytes of `id` this folder holds: `byteCount` when they are stored whole, the length of
    /// `owner`'s transfer in progress otherwise (0 for none).
    package func heldOffset(of id: String, byteCount: Int64, owner: String? = nil) -> Int64 {
        if storedSize(of: id) == byteCount { return byteCount }
        return transferredLength(of: id, byteCount: byteCount, owner: owner)
    }

    /// The length of `owner`'s transfer of `id` in progress (0 for none), whether or not the folder
    /// holds the attachment whole.
    package func transferredLength(of id: String, byteCount: Int64, owner: String? = nil) -> Int64 {
        var status = stat()
        guard stat(resumePath(for: id, byteCount: byteCount, owner: owner), &status) == 0 else { return 0 }
        return min(Int64(status.st_size), byteCount)
    }

    /// Appends `bytes` to the transfer of `id` when `offset` is where it stands, and returns the new
    /// length; nil, writing nothing, when the transfer stands elsewhere (another writer got there, or
    /// a piece was lost: the caller asks ``heldOffset(of:byteCount:owner:)`` and sends from there).
    ///
    /// The caller checks that the bytes do not run past `byteCount`.
    package func append(
        _ bytes: UnsafeRawBufferPointer, to id: String, byteCount: Int64, at offset: Int64, owner: String? = nil
    ) throws -> Int64? {
        let file = resumePath(for: id, byteCount: byteCount, owner: owner)
        // Only a transfer's first piece creates its file: a piece for an offset past a transfer that
        // is not there leaves nothing behind.
        if offset == 0 { try createFolder() }
        let output = open(file, O_WRONLY | O_CLOEXEC | (offset == 0 ? O_CREAT : 0), 0o644)
        guard output >= 0 else {
            if errno == ENOENT { return nil }
            throw Self.failure(file, "cannot be opened")
        }
        defer { close(output) }
        return try Self.append(bytes, to: output, at: offset, path: file)
    }

    /// Appends `bytes` to the open transfer file `output` when `offset` is its length, and returns the
    /// new length; nil, writing nothing, otherwise. The file is locked (`flock`) from the check to the
    /// end of the write, so that two writers at the same offset (a piece sent twice, two processes
    /// fetching the same bytes) do not both write. `check` runs under the lock first: false leaves the
    /// file as it is.
    static func append(
        _ bytes: UnsafeRawBufferPointer, to output: Int32, at offset: Int64, path file: String, checking check: () -> Bool = { true }
    ) throws -> Int64? {
        guard flock(output, LOCK_EX) == 0 else { throw failure(file, "cannot be locked") }
        defer { flock(output, LOCK_UN) }
        guard check() else { return nil }
        var status = stat()
        guard fstat(output, &status) == 0 else { throw failure(file, "cannot be examined") }
        guard Int64(status.st_size) == offset else { return nil }
        guard lseek(output, off_t(offset), SEEK_SET) >= 0 else { throw failure(file, "cannot be positioned") }
        try writeAll(bytes, to: output, path: file)
        return offset + Int64(bytes.count)
    }

    /// Checks the whole transfer of `id` against its size and SHA-256, a chunk at a time, then gives it
    /// its name. Bytes that are not the id's are removed (the transfer starts again from 0) and
    /// reported as ``BoutiqueError/attachmentDamaged(id:reason:)``.
    ///
    /// - Parameter hashedAs: the SHA-256 (hex) of every byte of `file`, hashed as they were appended
    ///   (``Receiving``, which holds the file open): when the path still names that file, it is not
    ///   read again, only its size checked.
    package func publishResumed(
        _ id: String, byteCount: Int64, owner: String? = nil, hashedAs known: (digest: String, file: FileIdentity)? = nil
    ) throws {
        let file = resumePath(for: id, byteCount: byteCount, owner: owner)
        let input = open(file, O_RDWR | O_CLOEXEC)
        guard input >= 0 else { throw Self.failure(file, "cannot be opened") }
        defer { close(input) }
        var status = stat()
        guard fstat(input, &status) == 0 else { throw Self.failure(file, "cannot be examined") }
        let (digest, count): (String, Int64)
        if let known, known.file == FileIdentity(status) {
            (digest, count) = (known.digest, Int64(status.st_size))
        } else {
            (digest, count) = try hash(input, path: file)
        }
        guard digest == id, count == byteCount else {
            unlink(file)
            throw BoutiqueError.attachmentDamaged(
                id: id,
                reason: count == byteCount
                    ? "the bytes sent are not the attachment's: their SHA-256 is \(digest)"
                    : "\(count) bytes were sent, \(byteCount) announced")
        }
        guard fsync(input) == 0 else { throw Self.failure(file, "cannot be synced to disk") }
        try publish(file, as: id, byteCount: byteCount)
    }

    /// Removes `owner`'s transfer of `id` in progress, if any.
    package func discardResumed(_ id: String, byteCount: Int64, owner: String? = nil) {
        unlink(resumePath(for: id, byteCount: byteCount, owner: owner))
    }

    /// Up to `length` bytes of the stored attachment `id` from `offset` (fewer at its end).
    ///
    /// - Throws: ``BoutiqueError/attachmentNotFound(id:)`` when it is not stored here.
    package func readRange(of id: String, offset: Int64, length: Int) throws -> [UInt8] {
        let file = filePath(for: id)
        let input = open(file, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else {
            if errno == ENOENT { throw BoutiqueError.attachmentNotFound(id: id) }
            throw Self.failure(file, "cannot be opened")
        }
        defer { close(input) }
        guard lseek(input, off_t(offset), SEEK_SET) >= 0 else { throw Self.failure(file, "cannot be positioned") }
        var bytes = [UInt8](repeating: 0, count: length)
        let filled = try bytes.withUnsafeMutableBytes { buffer in
            var filled = 0
            while filled < buffer.count {
                let count = try Self.readSome(input, into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]), path: file)
                if count == 0 { break }
                filled += count
            }
            return filled
        }
        bytes.removeLast(length - filled)
        return bytes
    }

    /// The SHA-256 (hex) and length of what `input` holds from its start.
    private func hash(_ input: Int32, path file: String) throws -> (String, Int64) {
        guard let hasher = SHA256Hasher() else { throw BoutiqueError.fileSystem(path: path, message: "OpenSSL could not compute a SHA-256") }
        let count = try feed(input, upTo: .max, into: hasher, path: file)
        guard let digest = hasher.finalize() else { throw BoutiqueError.fileSystem(path: path, message: "OpenSSL could not compute a SHA-256") }
        return (SHA256Hasher.hex(digest), count)
    }

    /// Adds what `input` holds from where it stands, up to `limit` bytes, to `hasher`, a chunk at a
    /// time; returns how many bytes that was (fewer at the file's end).
    func feed(_ input: Int32, upTo limit: Int64, into hasher: SHA256Hasher, path file: String) throws -> Int64 {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        var count: Int64 = 0
        while count < limit {
            let wanted = Int(min(Int64(buffer.count), limit - count))
            let read = try Self.readSome(input, into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<wanted]), path: file)
            if read == 0 { break }
            hasher.update(UnsafeRawBufferPointer(rebasing: buffer[..<read]))
            count += Int64(read)
        }
        return count
    }
}
