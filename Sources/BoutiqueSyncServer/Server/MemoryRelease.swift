import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Hands freed memory back to the system, where the C allocator keeps it.
///
/// ```swift
/// var release = MemoryRelease()
/// if let released = release.releaseIfWorthIt() { print(released.before - released.after) }
/// ```
///
/// glibc's allocator keeps what a process frees in its arenas (one per thread that allocated, up to
/// eight per core) for reuse, and gives back only what is at the very top of an arena's heap. After a
/// spike (large pushes and pulls decoded by several threads at once) a server at rest can keep
/// hundreds of megabytes it will not use again soon. `malloc_trim(0)` returns the free pages of
/// every arena (`madvise(MADV_DONTNEED)`); it walks the arenas, which costs a few milliseconds, so it
/// runs only when the process is more than ``threshold`` above the smallest size a release brought
/// it to. Under steady load that is at most once per check, and what it returns is faulted back in
/// as needed. It is looked up at run time (`dlsym`), as the C library's `malloc.h` is not part of the
/// Swift module: elsewhere, where the system's allocator returns memory itself, this does nothing.
///
/// A release that gives back less than ``minimumReturned`` is not reported, and the size it left
/// becomes the new floor: the memory is in use (caches, connections), and trimming again every check
/// would cost the walk and log a release that returned nothing.
struct MemoryRelease {
    /// How far above its smallest size the process may be before memory is handed back.
    static let threshold = 8 * 1_048_576
    /// The least a release must give back to count (and be reported).
    static let minimumReturned = 1_048_576

    /// The size from which the process is looked at again: the smallest resident size seen after a
    /// release that returned memory (or at the first check), or the size left by one that did not.
    private var floor: Int?
    private let measure: @Sendable () -> Int
    private let release: (@Sendable () -> Void)?

    /// A release of this process's memory through glibc's `malloc_trim`.
    init() {
        measure = { Self.residentBytes() }
        if let trim = Self.trim {
            release = { _ = trim(0) }
        } else {
            release = nil
        }
    }

    /// A release that reads the resident size with `measure` and hands memory back with `release`
    /// (`nil`: the platform cannot), for tests.
    init(measure: @escaping @Sendable () -> Int, release: (@Sendable () -> Void)?) {
        self.measure = measure
        self.release = release
    }

    /// glibc's `int malloc_trim(size_t pad)`, when the C library has it.
    private static let trim: (@convention(c) (Int) -> Int32)? = {
        #if os(Linux)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
        #else
        return nil
        #endif
    }()

    /// glibc's `int mallopt(int parameter, int value)`, when the C library has it.
    private static let setOption: (@convention(c) (Int32, Int32) -> Int32)? = {
        #if os(Linux)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
        #else
        return nil
        #endif
    }()

    /// The size from which glibc maps a block of its own, handed back to the system when freed.
    static let mapThreshold: Int32 = 128 * 1_024

    /// Makes glibc hand large blocks back as soon as they are freed (once per process; elsewhere
    /// nothing).
    ///
    /// glibc maps blocks of 128 KiB and more on their own, but raises that threshold (up to 32 MiB)
    /// each time such a block is freed, so that after a spike of large blocks (pages of pulled and
    /// snapshot changes, pushed bodies) later ones come from the arenas, where they leave
    /// fragments `malloc_trim` cannot return. Measured after a spike of 8 × 4,000 pushed notes and 8
    /// bootstraps: 91.7 MB at rest with the moving threshold, 36.8 MB with it fixed (idle 31 MB).
    /// Setting `M_MMAP_THRESHOLD` fixes it (and turns the moving threshold off), as
    /// `GLIBC_TUNABLES=glibc.malloc.mmap_threshold=131072` would.
    ///
    /// A threshold the process was started with (``setsMapThreshold(_:)``) is left as it is: the
    /// operator chose it.
    static let fixMapThreshold: Void = {
        guard !setsMapThreshold(ProcessInfo.processInfo.environment) else { return }
        // M_MMAP_THRESHOLD in glibc's malloc.h.
        _ = setOption?(-3, mapThreshold)
    }()

    /// Whether `environment` gives glibc a map threshold of its own: `MALLOC_MMAP_THRESHOLD_`, or
    /// `glibc.malloc.mmap_threshold` among `GLIBC_TUNABLES`.
    static func setsMapThreshold(_ environment: [String: String]) -> Bool {
        if environment["MALLOC_MMAP_THRESHOLD_"] != nil { return true }
        guard let tunables = environment["GLIBC_TUNABLES"] else { return false }
        return tunables.split(whereSeparator: { $0 == ":" }).contains { $0.hasPrefix("glibc.malloc.mmap_threshold=") }
    }

    /// The process's resident bytes before and after handing memory back, or `nil` when it is close
    /// enough to its floor, when the release gave back less than ``minimumReturned``, or when the
    /// platform has no such call. `freeCaches` runs first, when a release is worth trying: what it
    /// frees (a store's page caches) is handed back with the rest.
    mutating func releaseIfWorthIt(freeingCachesWith freeCaches: () async -> Void = {}) async -> (before: Int, after: Int)? {
        guard let release else { return nil }
        let before = measure()
        guard before > 0 else { return nil }
        guard let floor else {
            self.floor = before
            return nil
        }
        guard before > floor + Self.threshold else { return nil }
        await freeCaches()
        release()
        let after = measure()
        guard before - after >= Self.minimumReturned else {
            self.floor = after
            return nil
        }
        self.floor = min(floor, after)
        return (before, after)
    }

    /// The process's resident memory (`/proc/self/statm`'s second field, in pages); 0 when unknown.
    static func residentBytes() -> Int {
        #if os(Linux)
        guard let file = fopen("/proc/self/statm", "r") else { return 0 }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 128)
        guard fgets(&line, Int32(line.count), file) != nil else { return 0 }
        let fields = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).split(separator: " ")
        guard fields.count >= 2, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
        #else
        return 0
        #endif
    }
}
