import BoutiqueSQLite
import Foundation

/// A child process of a test — an executable built beside the tests, or a system tool — with its
/// output read as it comes on threads of its own, so that a full pipe never blocks it and a test can
/// wait for a line.
///
/// ```swift
/// let exit = try await ChildProcess.run("boutique", ["check", "notes.db"], in: folder)
/// #expect(exit.status == 0)
/// ```
///
/// Every wait suspends instead of blocking: all the suites share the cooperative pool, one thread per
/// core, and a test blocked on a child (a slow start under a sanitizer, say) would stall every other
/// test's deadline with it.
public final class ChildProcess: Sendable {
    public struct Exit: Sendable {
        public var status: Int32
        public var output: String
        public var errors: String
        /// Whether it ended by a signal rather than exiting.
        public var signalled: Bool
        /// Its peak resident memory, in bytes; 0 when unknown. For a child started `measuringPeakMemory`
        /// on Linux, its own address space's high-water mark (`VmHWM`), sampled while it ran.
        /// Otherwise `ru_maxrss`, which on Linux also counts the parent's own peak, inherited by a
        /// spawned child's exec: a tiny child of a test process that once held 800 MB reports 800 MB.
        public var peakResidentBytes = 0
    }

    /// An executable built beside the tests: on Linux the test bundle is an executable in the build
    /// folder and `Bundle.main.bundleURL` is that folder.
    public static func executable(_ name: String) -> URL { Bundle.main.bundleURL.appendingPathComponent(name) }

    private let processID: pid_t
    private let name: String
    private let collected = Lock((output: Data(), errors: Data(), openPipes: 2))
    /// How the child ended, once it has been waited for, and its peak resident memory in bytes.
    private let ending = Lock<(status: Int32, signalled: Bool, peak: Int)?>(nil)
    /// The highest `VmHWM` read while the child ran (Linux).
    private let sampledPeak = Lock(0)

    /// Starts the executable built beside the tests named `name` with `arguments`, in `directory`.
    public convenience init(_ name: String, _ arguments: [String], in directory: URL? = nil, input: Data? = nil) throws {
        try self.init(executable: Self.executable(name), arguments, in: directory, input: input)
    }

    /// Starts `executable arguments…` in `directory` (the test's own when `nil`), with `input` on its
    /// standard input (none when `nil`). With `mergingErrors`, standard error goes to ``output`` too,
    /// interleaved as the child wrote them, and ``errors`` stays empty. With `measuringPeakMemory`, its
    /// own peak memory is sampled while it runs (see ``Exit/peakResidentBytes``): a read of /proc
    /// every 20 ms, which is not free on a busy machine, so only for the tests that bound memory.
    ///
    /// Started with `posix_spawn`, not Foundation's `Process`: its `run()` copies each entry of
    /// /proc/self/fd with a fixed 256-byte `memcpy`, which reads past the end of its buffer and, when
    /// that buffer ends a mapped page, crashes the test process (seen in a full run).
    public init(
        executable: URL, _ arguments: [String], in directory: URL? = nil, input: Data? = nil, mergingErrors: Bool = false,
        measuringPeakMemory: Bool = false
    ) throws {
        name = executable.lastPathComponent
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }

        let standardInput = input == nil ? nil : try Self.makePipe()
        let output = try Self.makePipe()
        let errors = mergingErrors ? nil : try Self.makePipe()
        if let standardInput {
            posix_spawn_file_actions_adddup2(&actions, standardInput.read, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, output.write, 1)
        posix_spawn_file_actions_adddup2(&actions, errors?.write ?? output.write, 2)
        // The child keeps only its three standard descriptors: a pipe of another child left open in
        // this one would keep that child's output from ever ending.
        if let closeFrom = SpawnActions.closeFrom { _ = closeFrom(&actions, 3) }
        if let directory {
            guard let changeDirectory = SpawnActions.changeDirectory else {
                throw ChildProcessError("posix_spawn cannot change directory on this system")
            }
            _ = changeDirectory(&actions, directory.path)
        }

        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let environment = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + environment { free(pointer) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable.path, &actions, nil, argv, environment)
        for descriptor in [standardInput?.read, output.write, errors?.write].compactMap({ $0 }) { close(descriptor) }
        guard result == 0 else {
            for descriptor in [standardInput?.write, output.read, errors?.read].compactMap({ $0 }) { close(descriptor) }
            throw ChildProcessError("could not start \(executable.path): \(String(cString: strerror(result)))")
        }
        processID = pid

        #if os(Linux)
        if measuringPeakMemory { Thread.detachNewThread { [sampledPeak, ending, pid] in
            // Until it ends (a process that exited has no address space left to report).
            while ending.withLock({ $0 == nil }), let peak = Self.residentHighWaterMark(of: pid) {
                sampledPeak.withLock { $0 = max($0, peak) }
                usleep(20_000)
            }
        } }
        #endif

        let pipes = [(output.read, true)] + (errors.map { [($0.read, false)] } ?? [])
        collected.withLock { $0.openPipes = pipes.count }
        for (descriptor, isOutput) in pipes {
            Thread.detachNewThread { [collected] in
                readUntilEnd(descriptor) { chunk in
                    collected.withLock { if isOutput { $0.output.append(contentsOf: chunk) } else { $0.errors.append(contentsOf: chunk) } }
                }
                close(descriptor)
                collected.withLock { $0.openPipes -= 1 }
            }
        }
        if let standardInput, let input {
            // Written from a thread of its own too: a child that reads slowly must not block the test.
            Thread.detachNewThread {
                input.withUnsafeBytes { bytes in
                    var offset = 0
                    while offset < bytes.count {
                        let written = write(standardInput.write, bytes.baseAddress! + offset, bytes.count - offset)
                        if written < 0, errno == EINTR { continue }
                        if written <= 0 { break }
                        offset += written
                    }
                }
                close(standardInput.write)
            }
        }
    }

    /// The resident high-water mark of process `pid` in bytes (`VmHWM` in /proc: its own address
    /// space's, since its last exec or `clear_refs` reset), or `nil` when it has none: it ended, never
    /// was, or the system has no /proc.
    public static func residentHighWaterMark(of pid: pid_t) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return nil }
        return kilobytes * 1_024
    }

    /// A pipe whose ends this process does not hand to the children it starts later.
    private static func makePipe() throws -> (read: Int32, write: Int32) {
        var descriptors: [Int32] = [0, 0]
        guard pipe(&descriptors) == 0 else { throw ChildProcessError("pipe: \(String(cString: strerror(errno)))") }
        for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        return (descriptors[0], descriptors[1])
    }

    /// How the child ended, reaping it when it just did; `nil` while it runs.
    private func ended() -> (status: Int32, signalled: Bool, peak: Int)? {
        ending.withLock { ending in
            if let ending { return ending }
            var status: Int32 = 0
            var usage = rusage()
            let reaped = wait4(processID, &status, WNOHANG, &usage)
            if reaped == processID {
                // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import.
                let signal = status & 0x7f
                // Kilobytes on Linux, bytes on Apple platforms.
                #if os(Linux)
                let sampled = sampledPeak.withLock { $0 }
                let peak = sampled > 0 ? sampled : Int(usage.ru_maxrss) * 1_024
                #else
                let peak = Int(usage.ru_maxrss)
                #endif
                ending = signal == 0 ? ((status >> 8) & 0xff, false, peak) : (signal, true, peak)
            } else if reaped < 0, errno == ECHILD {
                ending = (-1, false, 0)
            }
            return ending
        }
    }

    /// A child still running when the test lets go of it (a test that failed early) is killed, so
    /// that it neither outlives the run nor keeps its output pipes open.
    deinit {
        if ended() == nil {
            kill(processID, SIGKILL)
            var status: Int32 = 0
            while waitpid(processID, &status, 0) < 0, errno == EINTR {}
        }
    }

    public var pid: Int32 { processID }
    public var isRunning: Bool { ended() == nil }

    /// The standard output so far.
    public var output: String { collected.withLock { String(decoding: $0.output, as: UTF8.self) } }
    /// The standard error so far.
    public var errors: String { collected.withLock { String(decoding: $0.errors, as: UTF8.self) } }

    /// The first output line starting with `prefix`, waiting up to `timeout` for it (times the run's
    /// ``TestBudget/timeoutScale``): a minute unless said, which only tells a hang (a server built with
    /// ThreadSanitizer, beside other builds on two cores, once took over 30 s to say it listens).
    public func line(startingWith prefix: String, timeout: Duration = .seconds(60)) async throws -> String {
        let timeout = TestBudget.scaled(timeout)
        let deadline = ContinuousClock.now + timeout
        func found() -> String? { output.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }).map(String.init) }
        while ContinuousClock.now < deadline {
            if let line = found() { return line }
            if !isRunning, found() == nil {
                throw ChildProcessError("\(name) ended without printing '\(prefix)': \(output) \(errors)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        // A test that waited its turn on a busy pool past the deadline may find the line came meanwhile.
        if let line = found() { return line }
        throw ChildProcessError("no line starting with '\(prefix)' within \(timeout): \(output) \(errors)")
    }

    /// Sends `signal` (SIGKILL, SIGINT, SIGTERM).
    public func send(_ signal: Int32) { if isRunning { kill(processID, signal) } }

    /// Waits for the process to end (killing it after `timeout`, or when the waiting task is
    /// cancelled) and for its output to be read, and returns how it ended.
    public func wait(timeout: Duration = .seconds(60)) async -> Exit {
        let deadline = ContinuousClock.now + timeout
        while isRunning, ContinuousClock.now < deadline, !Task.isCancelled { try? await Task.sleep(for: .milliseconds(10)) }
        if isRunning { send(SIGKILL) }
        while isRunning { try? await Task.sleep(for: .milliseconds(10)) }
        // The pipes close when the child (and anything it started) has let go of them.
        let drained = ContinuousClock.now + .seconds(10)
        while collected.withLock({ $0.openPipes > 0 }), ContinuousClock.now < drained {
            try? await Task.sleep(for: .milliseconds(5))
        }
        let ending = ended() ?? (-1, false, 0)
        return Exit(status: ending.status, output: output, errors: errors, signalled: ending.signalled, peakResidentBytes: ending.peak)
    }

    /// Runs the executable built beside the tests named `name` to its end.
    public static func run(
        _ name: String, _ arguments: [String], in directory: URL? = nil, input: Data? = nil, timeout: Duration = .seconds(120)
    ) async throws -> Exit {
        try await ChildProcess(name, arguments, in: directory, input: input).wait(timeout: timeout)
    }

    /// Runs `executable arguments…` to its end.
    public static func run(
        executable: URL, _ arguments: [String], in directory: URL? = nil, input: Data? = nil, timeout: Duration = .seconds(120)
    ) async throws -> Exit {
        try await ChildProcess(executable: executable, arguments, in: directory, input: input).wait(timeout: timeout)
    }
}

/// A child process that did not do what the test waited for.
public struct ChildProcessError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// The file actions glibc declares only for `_GNU_SOURCE`, which Swift's C module does not define:
/// looked up at run time.
private enum SpawnActions {
    typealias ChangeDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    static let changeDirectory: ChangeDirectory? = symbol("posix_spawn_file_actions_addchdir_np")
    static let closeFrom: CloseFrom? = symbol("posix_spawn_file_actions_addclosefrom_np")

    private static func symbol<T>(_ name: String) -> T? {
        guard let pointer = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
        return unsafeBitCast(pointer, to: T.self)
    }
}

