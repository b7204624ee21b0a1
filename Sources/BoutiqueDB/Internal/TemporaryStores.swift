import Foundation

/// The stores ``BoutiqueDB/inMemoryURL()`` handed out in this process, and how many opened databases
/// use each, so that the last one to close removes the files.
///
/// ```swift
/// let url = TemporaryStores.makeURL()
/// TemporaryStores.retain(path: url.path)   // when a database opens it
/// TemporaryStores.release(path: url.path)  // when it closes: the files go with the last one
/// ```
///
/// Why files and not SQLite's memory databases: neither shared-cache memory databases nor the `memdb`
/// VFS let a reader start while a write transaction is open (shared cache locks tables, `memdb` refuses a
/// shared lock while a writer holds a reserved one; both checked against the system SQLite). A WAL file
/// does, so temporary stores behave exactly like files on disk. On Linux they live in `/dev/shm`, which
/// is memory; elsewhere in the temporary directory, with durability turned off.
enum TemporaryStores {
    private static let openCounts = Lock<[String: Int]>([:])

    /// A fresh, never-used temporary store URL.
    static func makeURL() -> URL {
        let url = directory().appendingPathComponent("boutique-memory-\(UUID().uuidString.lowercased()).sqlite")
        openCounts.withLock { $0[url.standardizedFileURL.path] = 0 }
        return url
    }

    /// `true` when `path` was handed out by ``makeURL()``.
    static func isTemporary(path: String) -> Bool {
        openCounts.withLock { $0[path] != nil }
    }

    /// Records one more open database on the store at `path`.
    static func retain(path: String) {
        openCounts.withLock { counts in
            if let count = counts[path] { counts[path] = count + 1 }
        }
    }

    /// Records that a database on `path` closed, and removes the store's files when it was the last.
    static func release(path: String, files: [String]) {
        let isLast = openCounts.withLock { counts -> Bool in
            guard let count = counts[path] else { return false }
            counts[path] = max(count - 1, 0)
            return count <= 1
        }
        guard isLast else { return }
        for file in files { try? FileManager.default.removeItem(atPath: file) }
    }

    /// `/dev/shm` where it exists and is writable (memory-backed on Linux), else the temporary directory.
    private static func directory() -> URL {
        let sharedMemory = "/dev/shm"
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: sharedMemory, isDirectory: &isDirectory), isDirectory.boolValue,
            FileManager.default.isWritableFile(atPath: sharedMemory)
        {
            return URL(fileURLWithPath: sharedMemory, isDirectory: true)
        }
        return FileManager.default.temporaryDirectory
    }
}
