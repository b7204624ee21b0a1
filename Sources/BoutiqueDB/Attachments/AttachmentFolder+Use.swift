#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// When stored bytes were last used. A stored file is written once and never changed, so its
/// modification time is free to say it: every read, and every store of bytes already there, sets it
/// to now. A sync's byte budget for fetched attachments evicts the least recently used first by it,
/// whichever process read them (the app, a share extension, the tool).
extension AttachmentFolder {
    /// What is stored under one id, and when it was last used.
    package struct StoredUse: Sendable, Equatable {
        package let id: String
        package let byteCount: Int64
        /// Nanoseconds since 1970.
        package let lastUsed: Int64
    }

    /// Marks the bytes stored under `id` (already validated) used now; nothing when there are none. A
    /// file that cannot be touched (a read-only volume) keeps its time: reading never fails for that.
    package func markUsed(_ id: String) {
        var times = Self.now()
        _ = utimensat(AT_FDCWD, filePath(for: id), &times, 0)
    }

    /// Marks the open stored file `descriptor` used now.
    static func markUsed(descriptor: Int32) {
        var times = now()
        _ = futimens(descriptor, &times)
    }

    /// Now, as access and modification times. Read from the clock rather than left to the file
    /// system, whose own "now" moves by the scheduler's tick: two uses a millisecond apart keep their order.
    private static func now() -> [timespec] {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return [now, now]
    }

    /// The size and last use of the file stored under `id`, nil when there is none.
    package func storedUse(of id: String) -> StoredUse? {
        var status = stat()
        guard stat(filePath(for: id), &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        #if canImport(Darwin)
        let time = status.st_mtimespec
        #else
        let time = status.st_mtim
        #endif
        return StoredUse(id: id, byteCount: Int64(status.st_size), lastUsed: Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec))
    }
}
