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
    /// the same bytes may append to it as well. Once one of its pieces goes in, the running hash no
    /// longer covers the file, and ``publish()`` hashes the file whole, as
    /// ``publishResumed(_:byteCount:owner:)`` does.
    ///
    /// One task uses it at a time (it moves between the threads of ``BlockingFileWork`` with that task).
    package final class Receiving: @unchecked Sendable {
        package let folder: AttachmentFolder
        package let id: String
        package let byteCount: Int64
        /// How many bytes the transfer holds.
        package private(set) var held: Int64
        /// The hash of the file's first ``held`` bytes, while every one of them went through it.
        private var hasher: SHA256Hasher?
        /// The transfer's file, held open so that its inode cannot be reused: while its path names the
        /// same file, no other process removed it and began another (a damaged transfer starts again).
        private var pinned: (descriptor: Int32, file: FileIdentity)?

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
            guard pin(), let input = pinned?.descriptor else { return }
            if try folder.feed(input, upTo: held, into: hasher, path: path) == held { self.hasher = hasher }
        }

        deinit {
            if let pinned { close(pinned.descriptor) }
        }

        private var path: String { folder.resumePath(for: id, byteCount: byteCount) }

        /// Opens the transfer's file and notes which it is; false when it is not there.
        private func pin() -> Bool {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return false }
            var status = stat()
            guard fstat(descriptor, &status) == 0 else {
                close(descriptor)
                return false
            }
            pinned = (descriptor, FileIdentity(status))
            return true
        }

        /// Whether the transfer's path still names the file pinned.
        private var isStillPinned: Bool {
            var status = stat()
            guard let pinned, stat(path, &status) == 0 else { return false }
            return FileIdentity(status) == pinned.file
        }

        /// Appends `bytes` when the transfer stands at `offset`, and returns where it stands then: past
        /// them, or, when another writer got there first, wherever that left it.
        ///
        /// The caller checks that the bytes do not run past ``byteCount``.
        package func append(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws -> Int64 {
            if offset == held, let end = try folder.append(bytes, to: id, byteCount: byteCount, at: offset) {
                hasher?.update(bytes)
                held = end
                if pinned == nil ? !pin() : !isStillPinned { hasher = nil }
            } else {
                hasher = nil
                held = folder.heldOffset(of: id, byteCount: byteCount)
            }
            return held
        }

        /// Checks the whole transfer against the id (with the running hash, when it covers the file)
        /// and gives it its name. Bytes that are not the id's are removed, and reported as
        /// ``BoutiqueError/attachmentDamaged(id:reason:)``: the next transfer starts again from 0.
        package func publish() throws {
            let digest = isStillPinned ? hasher?.finalize().map(SHA256Hasher.hex) : nil
            hasher = nil
            try folder.publishResumed(id, byteCount: byteCount, hashedAs: digest)
        }
    }

    /// A file's device and inode: the same on two `stat`s when they name the same file.
    struct FileIdentity: Equatable {
        let device: UInt64
        let inode: UInt64

        init(_ status: stat) {
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
        }
    }

    /// A transfer of `id`, of `byteCount` bytes, into this folder, from where an earlier one stopped.
    package func receiving(_ id: String, byteCount: Int64) throws -> Receiving {
        try Receiving(folder: self, id: id, byteCount: byteCount)
    }
}
