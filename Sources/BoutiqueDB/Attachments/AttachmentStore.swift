import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of a database's attachments: stores them, says where they are, reads them.
///
/// ```swift
/// let image = try await db.attachments.store(jpegData, contentType: "image/jpeg")               // from memory
/// let video = try await db.attachments.store(contentsOf: movieURL, contentType: "video/mp4")   // streamed
/// let url = try await db.attachments.fileURL(for: image)       // nil when the bytes are not on this device
/// let bytes = try await db.attachments.data(for: image)        // BoutiqueError when they are not
/// ```
///
/// Bytes live in a folder beside the database file, `<file>.attachments/`, one file per attachment
/// named by its ``Attachment/id`` (the SHA-256 of the bytes): the same bytes stored twice, or pointed at
/// by many rows, are one file. They never enter a row or the change log. Every process that opens the
/// file sees the same folder. A file is written once: to a `.partial-` file in the folder, synced, then
/// renamed to its id, so a crash mid-store leaves no attachment, never part of one.
///
/// A database from ``BoutiqueDB/inMemoryURL()`` keeps its attachments in a temporary folder beside its
/// temporary file, removed with it. A SQLite in-memory URI (`mode=memory`) has no file to put a folder
/// beside: its store throws ``BoutiqueError/invalidArgument(_:)``.
///
/// Files are read and written on a dispatch thread, never the caller's actor or the cooperative pool;
/// streaming holds one chunk (1 MiB) in memory, whatever the size of the file.
///
/// A stored file is never changed, so its modification time says when its bytes were last used:
/// ``fileURL(for:)``, ``data(for:)``, ``copy(_:to:)`` and a store of bytes already there set it to now.
/// A sync's budget for fetched bytes (`SyncOptions(attachmentCacheBytes:)`) evicts by it.
public struct AttachmentStore: Sendable {
    /// The database whose attachments these are.
    package let database: DatabaseActor

    init(database: DatabaseActor) {
        self.database = database
    }

    /// The folder holding the bytes (it is created by the first store); nil for a SQLite in-memory URI.
    public var folderURL: URL? {
        database.location.attachmentsFolder.map { URL(fileURLWithPath: $0, isDirectory: true) }
    }

    /// Stores `data` and returns the attachment that names it.
    ///
    /// ```swift
    /// let image = try await db.attachments.store(jpegData, contentType: "image/jpeg")
    /// try await db.write { conn in
    ///     try Photo.insert { Photo(id: UUID(), caption: "Beach", image: image) }.execute(conn)
    /// }
    /// ```
    ///
    /// Bytes already stored are not written again. - Throws: ``BoutiqueError/fileSystem(path:message:)``
    /// when the folder or file cannot be written, ``BoutiqueError/cancelled``.
    public func store(_ data: Data, contentType: String) async throws -> Attachment {
        let folder = try requireFolder()
        return try await BlockingFileWork.run { isCancelled in
            try folder.store(.memory(data), contentType: contentType, isCancelled: isCancelled)
        }
    }

    /// Stores the contents of the file at `fileURL`, streamed: hashed and copied a chunk at a time, so
    /// a file of any size takes one chunk of memory.
    ///
    /// ```swift
    /// let video = try await db.attachments.store(contentsOf: movieURL, contentType: "video/mp4")
    /// ```
    ///
    /// The file is copied, not moved; it is read to its end (a pipe works too). - Throws:
    /// ``BoutiqueError/fileSystem(path:message:)`` when it cannot be read or the copy cannot be written,
    /// ``BoutiqueError/cancelled`` (nothing is stored).
    public func store(contentsOf fileURL: URL, contentType: String) async throws -> Attachment {
        let folder = try requireFolder()
        guard fileURL.isFileURL else { throw BoutiqueError.invalidArgument("not a file URL: \(fileURL.absoluteString)") }
        let path = fileURL.path
        return try await BlockingFileWork.run { isCancelled in
            let input = open(path, O_RDONLY | O_CLOEXEC)
            guard input >= 0 else { throw AttachmentFolder.failure(path, "cannot be opened") }
            defer { close(input) }
            return try folder.store(.file(input), contentType: contentType, isCancelled: isCancelled)
        }
    }

    /// The file holding the bytes of `attachment`, or nil when they are not on this device.
    ///
    /// ```swift
    /// if let url = try await db.attachments.fileURL(for: photo.image) { player.play(url) }
    /// ```
    ///
    /// The file is shared by every row pointing at the same bytes: read it, never change or move it.
    /// Its size is checked, not its hash (that would read the whole file): ``data(for:)`` and
    /// ``copy(_:to:)`` check both. - Throws: ``BoutiqueError/invalidArgument(_:)`` for an id that is
    /// not a SHA-256 (nothing is looked up), ``BoutiqueError/attachmentDamaged(id:reason:)`` when the
    /// file stored under the id has another size.
    public func fileURL(for attachment: Attachment) async throws -> URL? {
        let folder = try requireFolder()
        try Attachment.validate(id: attachment.id)
        guard let size = folder.storedSize(of: attachment.id) else { return nil }
        guard size == attachment.byteCount else { throw AttachmentFolder.sizeMismatch(attachment, found: size) }
        folder.markUsed(attachment.id)
        return URL(fileURLWithPath: folder.filePath(for: attachment.id), isDirectory: false)
    }

    /// The bytes of `attachment`, checked against its SHA-256 before they are returned.
    ///
    /// ```swift
    /// let image = UIImage(data: try await db.attachments.data(for: photo.image))
    /// ```
    ///
    /// - Throws: ``BoutiqueError/attachmentNotFound(id:)`` when they are not on this device,
    ///   ``BoutiqueError/attachmentDamaged(id:reason:)`` when the stored file is not them,
    ///   ``BoutiqueError/invalidArgument(_:)`` for an id that is not a SHA-256 (nothing is read).
    public func data(for attachment: Attachment) async throws -> Data {
        let folder = try requireFolder()
        try Attachment.validate(id: attachment.id)
        return try await BlockingFileWork.run { _ in try folder.data(for: attachment) }
    }

    /// Copies the bytes of `attachment` to `destination`, a chunk at a time, checked against its SHA-256:
    /// `destination` appears only once the whole copy is right (it replaces a file there).
    ///
    /// ```swift
    /// try await db.attachments.copy(video, to: exportURL)
    /// ```
    ///
    /// - Throws: as ``data(for:)``, and ``BoutiqueError/fileSystem(path:message:)`` when `destination`
    ///   cannot be written.
    public func copy(_ attachment: Attachment, to destination: URL) async throws {
        let folder = try requireFolder()
        try Attachment.validate(id: attachment.id)
        guard destination.isFileURL else { throw BoutiqueError.invalidArgument("not a file URL: \(destination.absoluteString)") }
        let path = destination.path
        try await BlockingFileWork.run { isCancelled in try folder.copy(attachment, to: path, isCancelled: isCancelled) }
    }

    /// Whether the bytes of `attachment` are on this device (by the size of the file under its id).
    ///
    /// ```swift
    /// if try await db.attachments.state(of: photo.image) == .local { ... }
    /// ```
    public func state(of attachment: Attachment) async throws -> AttachmentState {
        let folder = try requireFolder()
        try Attachment.validate(id: attachment.id)
        return Self.state(storedSize: folder.storedSize(of: attachment.id), expected: attachment.byteCount)
    }

    /// Every attachment the database knows of: each distinct value a row holds, and each stored file no
    /// row points at, ordered by id.
    ///
    /// ```swift
    /// for entry in try await db.attachments.list() where entry.state == .missing { print(entry.id) }
    /// ```
    ///
    /// It reads every row of every table (a value is an attachment by its shape, whatever the model), so
    /// it is meant for tools and occasional checks.
    public func list() async throws -> [AttachmentEntry] {
        let folder = try requireFolder()
        let referenced = try await database.read { conn in try AttachmentReferences.all(in: conn) }
        let stored = try await BlockingFileWork.run { _ in try folder.storedFiles() }
        let storedSizes = Dictionary(stored.map { ($0.id, $0.byteCount) }, uniquingKeysWith: { first, _ in first })
        var entries = referenced.map { attachment in
            AttachmentEntry(
                id: attachment.id, byteCount: attachment.byteCount, contentType: attachment.contentType,
                state: Self.state(storedSize: storedSizes[attachment.id], expected: attachment.byteCount), isReferenced: true)
        }
        let referencedIDs = Set(referenced.map(\.id))
        for file in stored where !referencedIDs.contains(file.id) {
            entries.append(AttachmentEntry(id: file.id, byteCount: file.byteCount, contentType: nil, state: .local, isReferenced: false))
        }
        return entries.sorted { ($0.id, $0.contentType ?? "", $0.byteCount) < ($1.id, $1.contentType ?? "", $1.byteCount) }
    }

    private static func state(storedSize: Int64?, expected: Int64) -> AttachmentState {
        guard let storedSize else { return .missing }
        return storedSize == expected ? .local : .damaged
    }

    private func requireFolder() throws(BoutiqueError) -> AttachmentFolder {
        guard let path = database.location.attachmentsFolder else {
            throw .invalidArgument(
                "a SQLite in-memory database has no file to keep attachments beside; open BoutiqueDB.inMemoryURL() instead")
        }
        return AttachmentFolder(path: path)
    }
}
