import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's limit on open files, which bounds how many connections a server can hold: each is a
/// file descriptor. Many systems start processes with a soft limit of 1,024 under a far higher hard
/// limit; a server process raises the soft one to the hard one (``SyncHTTPServer/raiseOpenFileLimit()``)
/// rather than refuse connections at 1,024.
enum FileDescriptorLimit {
    /// Descriptors kept for everything but connections: the listening socket, epoll, the store's
    /// files, logs.
    static let reserved = 64

    /// The soft limit in force, `nil` when it cannot be read.
    static func current() -> Int? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        return limit.rlim_cur >= rlim_t(Int.max) ? Int.max : Int(limit.rlim_cur)
    }

    /// Raises the soft limit to the hard limit (on macOS, to `OPEN_MAX` at most, which is all it
    /// allows) and returns the soft limit now in force, `nil` when it cannot be read.
    @discardableResult
    static func raise() -> Int? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        var wanted = limit.rlim_max
        #if canImport(Darwin)
        wanted = min(wanted, rlim_t(OPEN_MAX))
        #endif
        if limit.rlim_cur < wanted {
            var raised = limit
            raised.rlim_cur = wanted
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return limit.rlim_cur >= rlim_t(Int.max) ? Int.max : Int(limit.rlim_cur)
    }

    /// `wanted` connections, or fewer when the open-file limit leaves room for fewer.
    static func connections(_ wanted: Int, softLimit: Int?) -> Int {
        guard let softLimit else { return wanted }
        return max(1, min(wanted, softLimit - reserved))
    }
}
