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
    }

    /// An executable built beside the tests: on Linux the test bundle is an executable in the build
    /// folder and `Bundle.main.bundleURL` is that folder.
    public static func executable(_ name: String) -> URL { Bundle.main.bundleURL.appendingPathComponent(name) }

    private let process: Process
    private let collected = Lock((output: Data(), errors: Data(), openPipes: 2))

    /// Starts the executable built beside the tests named `name` with `arguments`, in `directory`.
    public convenience init(_ name: String, _ arguments: [String], in directory: URL? = nil, input: Data? = nil) throws {
        try self.init(executable: Self.executable(name), arguments, in: directory, input: input)
    }

    /// Starts `executable arguments…` in `directory` (the test's own when `nil`), with `input` on its
    /// standard input (none when `nil`). With `mergingErrors`, standard error goes to ``output`` too,
    /// interleaved as the child wrote them, and ``errors`` stays empty.
    public init(
        executable: URL, _ arguments: [String], in directory: URL? = nil, input: Data? = nil, mergingErrors: Bool = false
    ) throws {
        process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let standardInput = input.map { _ in Pipe() }
        process.standardInput = standardInput ?? FileHandle.nullDevice
        let output = Pipe()
        let errors = mergingErrors ? output : Pipe()
        process.standardOutput = output
        process.standardError = errors
        let pipes = mergingErrors ? [(output, true)] : [(output, true), (errors, false)]
        collected.withLock { $0.openPipes = pipes.count }
        for (pipe, isOutput) in pipes {
            let handle = pipe.fileHandleForReading
            Thread.detachNewThread { [collected] in
                withExtendedLifetime(handle) {
                    readUntilEnd(handle.fileDescriptor) { chunk in
                        collected.withLock { if isOutput { $0.output.append(contentsOf: chunk) } else { $0.errors.append(contentsOf: chunk) } }
                    }
                }
                collected.withLock { $0.openPipes -= 1 }
            }
        }
        try process.run()
        if let standardInput, let input {
            // Written from a thread of its own too: a child that reads slowly must not block the test.
            let handle = standardInput.fileHandleForWriting
            Thread.detachNewThread {
                handle.write(input)
                try? handle.close()
            }
        }
    }

    /// A child still running when the test lets go of it (a test that failed early) is killed, so
    /// that it neither outlives the run nor keeps its output pipes open.
    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    public var pid: Int32 { process.processIdentifier }
    public var isRunning: Bool { process.isRunning }

    /// The standard output so far.
    public var output: String { collected.withLock { String(decoding: $0.output, as: UTF8.self) } }
    /// The standard error so far.
    public var errors: String { collected.withLock { String(decoding: $0.errors, as: UTF8.self) } }

    /// The first output line starting with `prefix`, waiting up to `timeout` for it.
    public func line(startingWith prefix: String, timeout: Duration = .seconds(30)) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        func found() -> String? { output.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }).map(String.init) }
        while ContinuousClock.now < deadline {
            if let line = found() { return line }
            if !process.isRunning, found() == nil {
                throw ChildProcessError(
                    "\(process.executableURL?.lastPathComponent ?? "child") ended without printing '\(prefix)': \(output) \(errors)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw ChildProcessError("no line starting with '\(prefix)' within \(timeout): \(output) \(errors)")
    }

    /// Sends `signal` (SIGKILL, SIGINT, SIGTERM).
    public func send(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// Waits for the process to end (killing it after `timeout`, or when the waiting task is
    /// cancelled) and for its output to be read, and returns how it ended.
    public func wait(timeout: Duration = .seconds(60)) async -> Exit {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline, !Task.isCancelled { try? await Task.sleep(for: .milliseconds(10)) }
        if process.isRunning { send(SIGKILL) }
        while process.isRunning { try? await Task.sleep(for: .milliseconds(10)) }
        // The pipes close when the child (and anything it started) has let go of them.
        let drained = ContinuousClock.now + .seconds(10)
        while collected.withLock({ $0.openPipes > 0 }), ContinuousClock.now < drained {
            try? await Task.sleep(for: .milliseconds(5))
        }
        return Exit(
            status: process.terminationStatus, output: output, errors: errors,
            signalled: process.terminationReason == .uncaughtSignal)
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
