import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Another process's memory and CPU time, as the system reports them: `/proc` on Linux, libproc's
/// `proc_pid_rusage` on Apple platforms. Zero when the process is gone or the system will not say.
enum ProcessUsage {
    /// Its resident memory now, in bytes.
    static func residentBytes(of pid: Int32) -> Int {
        #if os(Linux)
        return number(in: "/proc/\(pid)/status", field: "VmRSS:") * 1_024
        #elseif canImport(Darwin)
        return usage(of: pid).map { Int($0.ri_resident_size) } ?? 0
        #endif
    }

    /// Its peak memory so far, in bytes: the resident high-water mark (`VmHWM`) on Linux, the
    /// lifetime peak footprint on Apple platforms (which keep no resident high-water mark).
    static func peakBytes(of pid: Int32) -> Int {
        #if os(Linux)
        return number(in: "/proc/\(pid)/status", field: "VmHWM:") * 1_024
        #elseif canImport(Darwin)
        return usage(of: pid).map { Int($0.ri_lifetime_max_phys_footprint) } ?? 0
        #endif
    }

    /// Its resident memory by kind, in bytes: anonymous (the heap, stacks), file-backed (code,
    /// mapped files) and shared memory (SQLite's WAL index); zeros where unknown.
    static func residentKinds(of pid: Int32) -> (anonymous: Int, file: Int, shared: Int) {
        #if os(Linux)
        let file = "/proc/\(pid)/status"
        return (number(in: file, field: "RssAnon:") * 1_024, number(in: file, field: "RssFile:") * 1_024,
                number(in: file, field: "RssShmem:") * 1_024)
        #else
        return (0, 0, 0)
        #endif
    }

    /// How many threads it has now (Linux only; 0 elsewhere).
    static func threads(of pid: Int32) -> Int {
        #if os(Linux)
        return number(in: "/proc/\(pid)/status", field: "Threads:")
        #else
        return 0
        #endif
    }

    /// Its user + system CPU time so far, in seconds.
    static func cpuSeconds(of pid: Int32) -> Double {
        #if os(Linux)
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the command: state is field 3, utime 14 and stime 15.
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
        #elseif canImport(Darwin)
        guard let info = usage(of: pid) else { return 0 }
        // The times are in Mach absolute time units, nanoseconds only on Intel.
        var timebase = mach_timebase_info_data_t()
        mach_timebase_info(&timebase)
        let ticks = Double(info.ri_user_time + info.ri_system_time)
        return ticks * Double(timebase.numer) / Double(timebase.denom) / 1e9
        #endif
    }

    /// The processes whose command name is `name` (PostgreSQL's backends, say).
    static func processes(named name: String) -> [Int32] {
        #if os(Linux)
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { pid in
            let command = try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)
            return command?.trimmingCharacters(in: .whitespacesAndNewlines) == name
        }
        #elseif canImport(Darwin)
        var pids = [Int32](repeating: 0, count: Int(max(0, proc_listallpids(nil, 0))) + 64)
        let count = pids.withUnsafeMutableBytes { proc_listallpids($0.baseAddress, Int32($0.count)) }
        return pids.prefix(Int(max(0, count))).filter { pid in
            var buffer = [CChar](repeating: 0, count: 1_024)
            guard proc_name(pid, &buffer, UInt32(buffer.count)) > 0 else { return false }
            return String(cString: buffer) == name
        }
        #endif
    }

    #if os(Linux)
    /// The number on the line of `/proc/PID/status` that starts with `field` (kilobytes for sizes).
    private static func number(in file: String, field: String) -> Int {
        guard let status = try? String(contentsOfFile: file, encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) }),
            let value = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap({ Int($0) })
        else { return 0 }
        return value
    }
    #elseif canImport(Darwin)
    private static func usage(of pid: Int32) -> rusage_info_v4? {
        var info = rusage_info_v4()
        let status = withUnsafeMutablePointer(to: &info) { pointer in
            pointer.withMemoryRebound(to: rusage_info_t?.self, capacity: 1) { proc_pid_rusage(pid, RUSAGE_INFO_V4, $0) }
        }
        return status == 0 ? info : nil
    }
    #endif
}
