import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension AttachmentFolder {
    /// One transfer of an attachment's bytes into the folder that hashes each piece as it appends it,
    /// so that publishing the whole need not read the file back.
    ///
    /// ```swift
    /// let receiving = try folder.receiving(id, byteCount: size)   // hashes what a killed transfer left
    /// var held = receiving.held
    /// held = try receiving.append(piece, at: held)                 // where the transfer stands now
    /// if held == size { try receiving.publish() }                  // checked against the id, then named
    /// ```
    ///
    /// The file is the `.resume-` file of ``append(_:to:byteCount:at:owner:)``: another process fetching
    /// the same bytes may append to it as well, or remove it and begin again. The transfer writes
    /// through a descriptor it keeps open, under the file's lock, only while the path still names that
    /// file; so the running hash covers every byte of the file until another writer's piece goes in, or
    /// the file is replaced. From then on it is dropped, and ``publish()`` hashes the file whole, as
    /// ``publishResumed(_:byteCount:owner:hashedAs:)`` does.
    ///
    /// One task uses it at a time (it moves between the threads of ``BlockingFileWork`` with that task).
    package final class Receiving: @unchecked Sendable {
        package let folder: AttachmentFolder
        package let id: String
        package let byteCount: Int64
        /// How many bytes the transfer holds.
        package private(set) var held: Int64
        /// The hash of every byte of ``file``, while every one of them went through it.
        private var hasher: SHA256Hasher?
        /// The transfer's file, open (so that its inode cannot be reused while it is held), and which
        /// file it is.
        private var file: (descriptor: Int32, identity: FileIdentity)?

        fileprivate init(folder: AttachmentFolder, id: String, byteCount: Int64) throws {
            self.folder = folder
            self.id = id
            self.byteCount = byteCount
            held = folder.heldOffset(of: id, byteCount: byteCount)
            hasher = SHA256Hasher()
            guard held > 0, let hasher else { return }
            // What a killed transfer left: hashed now (it is read once either way). Bytes stored whole
            // have no transfer to read, and need no hash.
            self.hasher = nil
            guard let (descriptor, _) = try keepOpen(creating: false) else { return }
            if try folder.feed(descriptor, upTo: .max, into: hasher, path: path) == held { self.hasher = hasher }
        }

        deinit {
            if let file { close(file.descriptor) }
        }

        private var path: String { folder.resumePath(for: id, byteCount: byteCount) }

        /// Opens the transfer's file (creating it when `creating`) and keeps it open; returns its
        /// descriptor and length, or nil when it is not there.
        private func keepOpen(creating: Bool) throws -> (Int32, Int64)? {
            if creating { try folder.createFolder() }
            let descriptor = open(path, O_RDWR | O_CLOEXEC | (creating ? O_CREAT : 0), 0o644)
            guard descriptor >= 0 else {
                if errno == ENOENT { return nil }
                throw AttachmentFolder.failure(path, "cannot be opened")
            }
            var status = stat()
            guard fstat(descriptor, &status) == 0 else {
                close(descriptor)
                throw AttachmentFolder.failure(path, "cannot be examined")
            }
            file = (descriptor, FileIdentity(status))
            return (descriptor, Int64(status.st_size))
        }

        /// Whether the transfer's path still names the file this transfer holds open.
        private var pathNamesItsFile: Bool {
            var status = stat()
            guard let file, stat(path, &status) == 0 else { return false }
            return FileIdentity(status) == file.identity
        }

        /// Appends `bytes` when the transfer stands at `offset`, and returns where it stands then: past
        /// them, or, when another writer got there first, wherever that left it.
        ///
        /// The caller checks that the bytes do not run past ``byteCount``.
        package func append(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws -> Int64 {
            if file == nil, offset == 0, held == 0, let (_, length) = try keepOpen(creating: true), length > 0 {
                // Another process began the transfer meanwhile: its bytes are not in this hash.
                hasher = nil
            }
            let end: Int64?
            if offset == held, let file {
                end = try AttachmentFolder.append(bytes, to: file.descriptor, at: offset, path: path) { pathNamesItsFile }
            } else {
                end = nil
            }
            if let end {
                hasher?.update(bytes)
                held = end
            } else {
                // Another writer's piece, or another file under the path: this hash no longer covers
                // it, and the transfer goes on (through the path) from where it stands.
                hasher = nil
                if let file { close(file.descriptor) }
                file = nil
                held = folder.heldOffset(of: id, byteCount: byteCount)
                if offset == held, let next = try folder.append(bytes, to: id, byteCount: byteCount, at: offset) { held = next }
            }
            return held
        }

        /// Checks the whole transfer against the id (with the running hash, when it covers the whole
        /// file) and gives it its name. Bytes that are not the id's are removed, and reported as
        /// ``BoutiqueError/attachmentDamaged(id:reason:)``: the next transfer starts again from 0.
        package func publish() throws {
            var known: (digest: String, file: FileIdentity)?
            if held == byteCount, let file, let digest = hasher?.finalize() {
                known = (SHA256Hasher.hex(digest), file.identity)
            }
            hasher = nil
            // The file stays open until the name is given: its identity cannot pass to another file.
            try folder.publishResumed(id, byteCount: byteCount, hashedAs: known)
        }
    }

    /// A file's device and inode: the same on two `stat`s when they name the same file (while one of
    /// them is held open, so that its inode is not reused).
    package struct FileIdentity: Equatable, Sendable {
        let device: UInt64
        let inode: UInt64

        init(_ status: stat) {
            device = UInt64(truncatingIfNeeded: status.st_dev)
            inode = UInt64(truncatingIfNeeded: status.st_ino)
        }
    }

    /// A transfer of `id`, of `byteCount` bytes, into this folder, from where an earlier one stopped.
    package func receiving(_ id: String, byteCount: Int64) throws -> Receiving {
        try Receiving(folder: self, id: id, byteCount: byteCount)
    }
}
