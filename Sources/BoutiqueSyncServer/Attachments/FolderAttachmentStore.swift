import BoutiqueDB
import BoutiqueSQLite
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A ``SyncAttachmentStore`` in a folder: a subfolder per tenant (named by the SHA-256 of the tenant's
/// name, as ``SQLiteTenantFilesStore``'s files are), a file per attachment named by its id.
///
/// ```swift
/// let attachments = try FolderAttachmentStore(
///     directory: URL(fileURLWithPath: "sync.db.attachments"),
///     maximumAttachmentBytes: 1 << 30, tenantQuotaBytes: 50 << 30)
/// let http = try SyncHTTPServer(server: server, signer: signer, port: 8080, attachments: attachments)
/// ```
///
/// An upload collects its pieces in a `.resume-` file of the tenant's folder, one per uploader (named
/// by the SHA-256 of the user's name), which a killed server keeps: the device asks where it stands
/// and sends from there. (An unfinished upload from a version that kept one file for every user is not
/// taken up: it starts again from 0, and garbage collection removes the old file.) The piece that completes it is checked
/// against the id (SHA-256, read back a chunk at a time), synced and renamed to the id; bytes that are
/// not the id's are removed, and the upload starts again. Memory holds one piece, whatever the size.
public final class FolderAttachmentStore: SyncAttachmentStore {
    /// The folder.
    public let directory: URL
    /// The largest attachment taken; nil for no limit.
    public let maximumAttachmentBytes: Int64?
    /// The most bytes a tenant's attachments (whole or being uploaded) may take; nil for no limit.
    public let tenantQuotaBytes: Int64?
    /// Uploads being written now (`FOLDER/ID/OWNER`: one piece of a user's upload at a time), and
    /// attachments being removed (`FOLDER/ID`).
    private let writing = Lock<Set<String>>([])

    /// A store in `directory` (created when the first upload comes).
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/invalidArgument(_:)`` when a limit is not positive.
    public init(directory: URL, maximumAttachmentBytes: Int64? = nil, tenantQuotaBytes: Int64? = nil) throws {
        for (name, limit) in [("maximum attachment size", maximumAttachmentBytes), ("tenant quota", tenantQuotaBytes)] {
            if let limit, limit <= 0 { throw BoutiqueError.invalidArgument("the \(name) must be a positive number of bytes, not \(limit)") }
        }
        self.directory = directory
        self.maximumAttachmentBytes = maximumAttachmentBytes
        self.tenantQuotaBytes = tenantQuotaBytes
    }

    public func state(of id: String, byteCount: Int64, tenant: String, uploader: String, evenIfStored: Bool) async throws -> AttachmentUploadState {
        try AttachmentChecks.check(id: id, byteCount: byteCount)
        let folder = try folder(of: tenant)
        let owner = try Self.owner(uploader)
        let isUploaded = !evenIfStored && folder.storedSize(of: id) == byteCount
        // This user's unfinished upload of the same bytes is not needed any more.
        if isUploaded { folder.discardResumed(id, byteCount: byteCount, owner: owner) }
        let held = isUploaded ? byteCount : folder.transferredLength(of: id, byteCount: byteCount, owner: owner)
        return AttachmentUploadState(id: id, byteCount: byteCount, offset: held, isUploaded: isUploaded)
    }

    public func append(
        _ bytes: [UInt8], to id: String, byteCount: Int64, at offset: Int64, tenant: String, uploader: String, evenIfStored: Bool
    ) async throws -> AttachmentUploadState {
        try AttachmentChecks.check(piece: bytes.count, of: id, byteCount: byteCount, at: offset, maximumAttachmentBytes: maximumAttachmentBytes)
        let folder = try folder(of: tenant)
        let owner = try Self.owner(uploader)
        // One piece of an upload at a time; uploads of one attachment by different users go side by
        // side, and none while garbage collection removes the attachment (which holds `path/ID`).
        let key = folder.path + "/" + id + "/" + owner
        guard writing.withLock({ writing in !writing.contains(folder.path + "/" + id) && writing.insert(key).inserted }) else {
            throw AttachmentRefusal(
                .offsetMismatch, "another piece of this attachment is being written; ask where the upload stands and go on from there",
                heldOffset: Self.held(of: id, byteCount: byteCount, owner: owner, in: folder, evenIfStored: evenIfStored))
        }
        defer { _ = writing.withLock { $0.remove(key) } }
        let quota = tenantQuotaBytes
        return try await BlockingFileWork.run { _ in
            if !evenIfStored, folder.storedSize(of: id) == byteCount {
                // Someone's upload made it whole: this user's own bytes of it are not needed any more.
                folder.discardResumed(id, byteCount: byteCount, owner: owner)
                return AttachmentUploadState(id: id, byteCount: byteCount, offset: byteCount, isUploaded: true)
            }
            if let quota {
                let others = try Self.bytesHeld(in: folder, exceptThe: id, of: byteCount, owner: owner)
                // Subtracted, not added: a size a client announces may be as large as Int64 holds.
                guard others <= quota, byteCount <= quota - others else {
                    throw AttachmentRefusal(
                        .tooLarge,
                        "the tenant's attachments take \(others) bytes and this one \(byteCount), past the tenant's quota of \(quota); nothing was stored")
                }
            }
            let appended = try bytes.withUnsafeBytes { piece in try folder.append(piece, to: id, byteCount: byteCount, at: offset, owner: owner) }
            guard let held = appended else {
                let held = Self.held(of: id, byteCount: byteCount, owner: owner, in: folder, evenIfStored: evenIfStored)
                throw AttachmentRefusal(.offsetMismatch, "the upload stands at offset \(held), not \(offset); send from there", heldOffset: held)
            }
            guard held == byteCount else {
                return AttachmentUploadState(id: id, byteCount: byteCount, offset: held, isUploaded: false)
            }
            do {
                try folder.publishResumed(id, byteCount: byteCount, owner: owner)
            } catch BoutiqueError.attachmentDamaged(_, let reason) {
                throw AttachmentRefusal(.invalid, "\(reason); nothing was stored, the upload starts again from 0")
            }
            return AttachmentUploadState(id: id, byteCount: byteCount, offset: byteCount, isUploaded: true)
        }
    }

    public func read(_ id: String, offset: Int64, length: Int, tenant: String) async throws -> (bytes: [UInt8], byteCount: Int64) {
        try AttachmentChecks.check(id: id, byteCount: 0)
        let folder = try folder(of: tenant)
        guard let byteCount = folder.storedSize(of: id) else {
            throw AttachmentRefusal(.notFound, "no attachment \(id) is uploaded")
        }
        guard offset >= 0, offset < byteCount || (offset == 0 && byteCount == 0) else {
            throw AttachmentRefusal(.rangeNotSatisfiable, "offset \(offset) is past the end of the attachment's \(byteCount) bytes")
        }
        guard length > 0 else { throw AttachmentRefusal(.invalid, "a range must ask for at least one byte, not \(length)") }
        let count = Int(min(Int64(length), byteCount - offset))
        let bytes = try await BlockingFileWork.run { _ in try folder.readRange(of: id, offset: offset, length: count) }
        return (bytes, byteCount)
    }

    public func attachments(tenant: String, unchangedBefore cutoff: UInt64) async throws -> [(id: String, isWhole: Bool)] {
        let folder = try folder(of: tenant)
        return try await BlockingFileWork.run { _ in
            // Files a collection hid and a crash left hidden come back first: whether a row points
            // at them was not settled.
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            Self.restore(names.filter { $0.hasPrefix(Self.collecting) }.map { String($0.dropFirst(Self.collecting.count)) }, in: folder)
            // An id with a file unchanged since before the cutoff; whole when it is held whole, whatever
            // the age of that file (a stale unfinished upload beside a newer whole copy is no orphan).
            var old: Set<String> = []
            var whole: Set<String> = []
            for (name, id, isWhole) in Self.files(in: folder) {
                if isWhole { whole.insert(id) }
                if Self.modified(folder.path + "/" + name) < cutoff { old.insert(id) }
            }
            return old.sorted().map { (id: $0, isWhole: whole.contains($0)) }
        }
    }

    public func remove(
        _ id: String, tenant: String, unchangedBefore cutoff: UInt64, unless isWanted: @Sendable () async throws -> Bool
    ) async throws -> Int64 {
        try AttachmentChecks.check(id: id, byteCount: 0)
        let folder = try folder(of: tenant)
        let key = folder.path + "/" + id
        // A piece being written now, by any user: the attachment is alive. Marked as being written
        // while it goes, so that no piece starts meanwhile.
        guard writing.withLock({ writing in
            guard !writing.contains(where: { $0 == key || $0.hasPrefix(key + "/") }) else { return false }
            writing.insert(key)
            return true
        }) else { return 0 }
        defer { _ = writing.withLock { $0.remove(key) } }
        // Out of sight first: renamed to `.collecting-NAME`, which no state, read or upload sees.
        let hidden = try await BlockingFileWork.run { _ in
            var hidden: [(name: String, bytes: Int64)] = []
            for (name, named, _) in Self.files(in: folder) where named == id {
                let path = folder.path + "/" + name
                var status = stat()
                guard Self.modified(path) < cutoff, stat(path, &status) == 0,
                      rename(path, folder.path + "/" + Self.collecting + name) == 0 else { continue }
                hidden.append((name, Int64(status.st_size)))
            }
            return hidden
        }
        guard !hidden.isEmpty else { return 0 }
        let wanted: Bool
        do {
            wanted = try await isWanted()
        } catch {
            Self.restore(hidden.map(\.name), in: folder)
            throw error
        }
        return try await BlockingFileWork.run { _ in
            guard !wanted else {
                Self.restore(hidden.map(\.name), in: folder)
                return 0
            }
            var removed: Int64 = 0
            for (name, bytes) in hidden where unlink(folder.path + "/" + Self.collecting + name) == 0 { removed += bytes }
            return removed
        }
    }

    /// The prefix of a file being collected: out of sight until it goes, or comes back.
    private static let collecting = ".collecting-"

    /// Gives hidden files (`.collecting-NAME`) their names back; a name taken meanwhile (the same
    /// bytes uploaded again, checked) keeps its file.
    private static func restore(_ names: [String], in folder: AttachmentFolder) {
        for name in names {
            let hidden = folder.path + "/" + collecting + name, path = folder.path + "/" + name
            if access(path, F_OK) == 0 { unlink(hidden) } else { rename(hidden, path) }
        }
    }

    /// The files of `folder` that hold attachments' bytes: (file name, id, whether it is the whole attachment).
    private static func files(in folder: AttachmentFolder) -> [(name: String, id: String, isWhole: Bool)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.compactMap { name in
            if Attachment.isValidID(name) { return (name, name, true) }
            // `.resume-ID-SIZE-OWNER`: an upload in progress.
            guard name.hasPrefix(".resume-") else { return nil }
            let id = String(name.dropFirst(".resume-".count).prefix(64))
            return Attachment.isValidID(id) ? (name, id, false) : nil
        }
    }

    /// When the file at `path` last changed, in milliseconds since 1970 (`UInt64.max` when it cannot be told: kept).
    private static func modified(_ path: String) -> UInt64 {
        guard let date = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date else { return .max }
        return UInt64(max(0, date.timeIntervalSince1970 * 1000))
    }

    /// The folder of `tenant`'s attachments.
    private func folder(of tenant: String) throws -> AttachmentFolder {
        let name = try TenantFileName.forTenant(tenant).dropLast(".db".count)
        return AttachmentFolder(path: directory.appendingPathComponent(String(name), isDirectory: true).path)
    }

    /// The bytes of `folder`'s attachments and uploads in progress, but those of `owner`'s upload of
    /// `id` at `byteCount` (its published file and its resume file): an upload of the same id announced
    /// at another size, or by another user, counts, so that clients cannot fill the disk past the
    /// quota by changing sizes or users.
    private static func bytesHeld(in folder: AttachmentFolder, exceptThe id: String, of byteCount: Int64, owner: String) throws -> Int64 {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return 0 }
        let resume = URL(fileURLWithPath: folder.resumePath(for: id, byteCount: byteCount, owner: owner)).lastPathComponent
        var total: Int64 = 0
        for name in names where name != id && name != resume {
            var status = stat()
            if stat(folder.path + "/" + name, &status) == 0 { total += Int64(status.st_size) }
        }
        return total
    }

    /// Where `owner`'s upload of `id` stands: ``AttachmentFolder/heldOffset(of:byteCount:owner:)``, or
    /// for an upload made `evenIfStored`, the length of their transfer whether or not the file is whole.
    private static func held(of id: String, byteCount: Int64, owner: String, in folder: AttachmentFolder, evenIfStored: Bool) -> Int64 {
        evenIfStored
            ? folder.transferredLength(of: id, byteCount: byteCount, owner: owner) : folder.heldOffset(of: id, byteCount: byteCount, owner: owner)
    }

    /// The name of `uploader`'s uploads in the folder: the SHA-256 of the user's name, in hexadecimal
    /// (a user's name is data, never part of a path), cut to 32 digits.
    private static func owner(_ uploader: String) throws -> String {
        try SHA256Digest.of(Array(uploader.utf8)).prefix(16).map { String(format: "%02x", $0) }.joined()
    }
}
