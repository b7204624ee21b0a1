import BoutiqueSQLite
import Foundation

/// A child process of the sync process tests (`boutique` or the crashing test server), with its
/// output read as it comes, so that a test can wait for a line.
final class ChildProcess: Sendable {
    struct Exit {
        var status: Int32
        var output: String
        var errors: String
        /// Whether it ended by a signal rather than exiting.
        var signalled: Bool
    }

    /// An executable built beside the tests.
    static func executable(_ name: String) -> URL { Bundle.main.bundleURL.appendingPathComponent(name) }

    private let process: Process
    private let collected = Lock((output: Data(), errors: Data()))
    private let readers = DispatchGroup()

    /// Starts `executable arguments…` in `directory`.
    init(_ executable: String, _ arguments: [String], in directory: URL) throws {
        process = Process()
        process.executableURL = Self.executable(executable)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.standardInput = FileHandle.nullDevice
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        for (pipe, isOutput) in [(output, true), (errors, false)] {
            readers.enter()
            let handle = pipe.fileHandleForReading
            Thread.detachNewThread { [collected, readers] in
                while true {
                    let chunk = handle.availableData
                    if chunk.isEmpty { break }
                    collected.withLock { if isOutput { $0.output.append(chunk) } else { $0.errors.append(chunk) } }
                }
                readers.leave()
            }
        }
        try process.run()
    }

    /// A child still running when the test lets go of it (a test that failed early) is killed, so
    /// that it neither outlives the run nor keeps its output pipes open.
    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    var pid: Int32 { process.processIdentifier }
    var isRunning: Bool { process.isRunning }

    /// The standard output so far.
    var output: String { collected.withLock { String(decoding: $0.output, as: UTF8.self) } }
    /// The standard error so far.
    var errors: String { collected.withLock { String(decoding: $0.errors, as: UTF8.self) } }

    /// The first output line starting with `prefix`, waiting up to `timeout` for it.
    func line(startingWith prefix: String, timeout: Duration = .seconds(30)) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let line = output.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) { return String(line) }
            if !process.isRunning, output.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) == nil {
                throw ChildProcessError("\(process.executableURL?.lastPathComponent ?? "child") ended without printing '\(prefix)': \(output) \(errors)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw ChildProcessError("no line starting with '\(prefix)' within \(timeout): \(output) \(errors)")
    }

    /// Sends `signal` (SIGKILL, SIGINT, SIGTERM).
    func send(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// Waits for the process to end (killing it after `timeout`), and returns how it ended.
    func wait(timeout: Duration = .seconds(60)) async -> Exit {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(10)) }
        if process.isRunning {
            send(SIGKILL)
            process.waitUntilExit()
        }
        process.waitUntilExit()
        readers.wait()
        return Exit(
            status: process.terminationStatus, output: output, errors: errors,
            signalled: process.terminationReason == .uncaughtSignal)
    }

    /// Runs `executable arguments…` to its end.
    static func run(_ executable: String, _ arguments: [String], in directory: URL, timeout: Duration = .seconds(120)) async throws -> Exit {
        try await ChildProcess(executable, arguments, in: directory).wait(timeout: timeout)
    }
}

struct ChildProcessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
