import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The folder beside a database file that holds its attachments' bytes: one file per attachment,
/// named by its id, plus the `.partial-…` files of stores in progress.
///
/// ```swift
/// let folder = AttachmentFolder(path: "/data/app.db.attachments")
/// let attachment = try folder.store(.file(fd), contentType: "video/mp4", isCancelled: { false })
/// folder.storedSize(of: attachment.id)     // its size on disk, nil when absent
/// ```
///
/// A file becomes visible under its id only by `rename`, after its bytes and size are on disk (`fsync`),
/// and the folder is synced after the rename: a crash leaves either no file or the whole file under
/// that name, never part of one. A partial file keeps its `.partial-` name, which is never an id.
/// Memory is bounded by one chunk whatever the size of the file.
package struct AttachmentFolder: Sendable {
    /// The folder's path.
    package let path: String

    package init(path: String) { self.path = path }

    /// How many bytes are read, hashed and written at a time.
    package static let chunkSize = 1 << 20

    /// Where bytes come from.
    package enum Source {
        /// Bytes already in memory.
        case memory(Data)
        /// An open file descriptor, read to its end.
        case file(Int32)
    }

    /// The path of the file named `id` (already validated: never a path of its own).
    package func filePath(for id: String) -> String { path + "/" + id }

    /// The size of the file stored under `id`, nil when there is none.
    package func storedSize(of id: String) -> Int64? {
        var status = stat()
        guard stat(filePath(for: id), &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(status.st_size)
    }

    /// Removes the file stored under `id` (already validated), if there is one: bytes this device may
    /// no longer hold (a space that left took the rows that pointed at them).
    package func remove(_ id: String) throws {
        guard unlink(filePath(for: id)) == 0 || errno == ENOENT else { throw Self.failure(filePath(for: id), "cannot be removed") }
    }

    /// Every attachment file in the folder with its size; none when the folder does not exist. Files whose
    /// names are not ids (partial stores, anything else) are left out.
    package func storedFiles() throws -> [(id: String, byteCount: Int64)] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else {
            guard FileManager.default.fileExists(atPath: path) else { return [] }
            throw BoutiqueError.fileSystem(path: path, message: "the attachments folder cannot be read")
        }
        return names.filter(Attachment.isValidID).sorted().compactMap { id in storedSize(of: id).map { (id, $0) } }
    }

    /// Hashes the bytes of `source` and stores them under their SHA-256, once: bytes already stored
    /// whole are not written again.
    package func store(_ source: Source, contentType: String, isCancelled: () -> Bool) throws -> Attachment {
        if case .memory(let data) = source {
            guard let digest = SHA256Hasher.digest(of: data) else { throw Self.hashFailure(path) }
            let id = SHA256Hasher.hex(digest)
            if storedSize(of: id) == Int64(data.count) {
                markUsed(id)
                return Attachment(validID: id, byteCount: Int64(data.count), contentType: contentType)
            }
        }
        try createFolder()
        let partial = path + "/.partial-" + UUID().uuidString.lowercased()
        do {
            let (id, byteCount) = try write(source, to: partial, isCancelled: isCancelled)
            try publish(partial, as: id, byteCount: byteCount)
            return Attachment(validID: id, byteCount: byteCount, contentType: contentType)
        } catch {
            unlink(partial)
            throw error
        }
    }

    /// Copies the bytes of `source` to a new file at `destination` while hashing them, and syncs the
    /// file. Returns their SHA-256 (hex) and count.
    func write(_ source: Source, to destination: String, isCancelled: () -> Bool) throws -> (String, Int64) {
        let output = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard output >= 0 else { throw Self.failure(destination, "cannot be created") }
        defer { close(output) }
        guard let hasher = SHA256Hasher() else { throw Self.hashFailure(path) }
        var byteCount: Int64 = 0
        switch source {
        case .memory(let data):
            try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
                var offset = 0
                while offset < bytes.count {
                    if isCancelled() { throw BoutiqueError.cancelled }
                    let chunk = UnsafeRawBufferPointer(rebasing: bytes[offset..<min(offset + Self.chunkSize, bytes.count)])
                    hasher.update(chunk)
                    try Self.writeAll(chunk, to: output, path: destination)
                    offset += chunk.count
                }
            }
            byteCount = Int64(data.count)
        case .file(let input):
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunkSize, alignment: 16)
            defer { buffer.deallocate() }
            while true {
                if isCancelled() { throw BoutiqueError.cancelled }
                let count = try Self.readSome(input, into: buffer, path: destination)
                if count == 0 { break }
                let chunk = UnsafeRawBufferPointer(rebasing: buffer[..<count])
                hasher.update(chunk)
                try Self.writeAll(chunk, to: output, path: destination)
                byteCount += Int64(count)
            }
        }
        guard fsync(output) == 0 else { throw Self.failure(destination, "cannot be synced to disk") }
        guard let digest = hasher.finalize() else { throw Self.hashFailure(path) }
        return (SHA256Hasher.hex(digest), byteCount)
    }

    /// Gives the synced `partial` file its name `id`, unless the whole file is there already.
    ///
    /// A file of another size under that name is damaged and is replaced. Two stores of the same bytes at
    /// once both rename identical files: each rename is atomic, so a reader sees one whole file or the other.
    package func publish(_ partial: String, as id: String, byteCount: Int64) throws {
        let final = filePath(for: id)
        if storedSize(of: id) == byteCount {
            unlink(partial)
            markUsed(id)
            return
        }
        guard rename(partial, final) == 0 else { throw Self.failure(final, "cannot be renamed into place") }
        try syncFolder()
    }

    /// Creates the folder (and its parents) when it is missing.
    package func createFolder() throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw BoutiqueError.fileSystem(path: path, message: "the attachments folder cannot be created: \(error.localizedDescription)")
        }
    }

    /// Makes the folder's entries (a rename) durable.
    package func syncFolder() throws {
        let folder = open(path, O_RDONLY | O_CLOEXEC)
        guard folder >= 0 else { throw Self.failure(path, "cannot be opened to sync it") }
        defer { close(folder) }
        guard fsync(folder) == 0 else { throw Self.failure(path, "cannot be synced to disk") }
    }

    /// Reads up to a buffer's worth from `input`; 0 at its end. Retries interrupted reads.
    package static func readSome(_ input: Int32, into buffer: UnsafeMutableRawBufferPointer, path: String) throws -> Int {
        while true {
            let count = read(input, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno != EINTR { throw failure(path, "cannot be read") }
        }
    }

    /// Writes all of `bytes` to `output`, however many calls it takes.
    package static func writeAll(_ bytes: UnsafeRawBufferPointer, to output: Int32, path: String) throws {
        guard let start = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let count = systemWrite(output, start + offset, bytes.count - offset)
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(path, "cannot be written")
            }
            offset += count
        }
    }

    /// A file-system error at `path` with the system's reason (`errno`).
    package static func failure(_ path: String, _ what: String) -> BoutiqueError {
        .fileSystem(path: path, message: "\(what): \(String(cString: strerror(errno)))")
    }

    private static func hashFailure(_ path: String) -> BoutiqueError {
        .fileSystem(path: path, message: "OpenSSL could not compute a SHA-256")
    }
}

/// The system's `write(2)`, which the folder's own `write(_:to:isCancelled:)` hides inside the type.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
