import Foundation

/// The built `boutique` executable, run as a child process.
struct ToolProcess {
    struct Result {
        var status: Int32
        var output: String
        var errorOutput: String
    }

    /// The executable, next to the test bundle in the build folder.
    static var executable: URL {
        Bundle.main.bundleURL.appendingPathComponent("boutique")
    }

    /// Runs `boutique arguments…` in `directory` and waits for it to end.
    static func run(_ arguments: [String], in directory: URL) throws -> Result {
        let process = try start(arguments, in: directory)
        return process.finish()
    }

    /// Starts `boutique arguments…` without waiting.
    static func start(_ arguments: [String], in directory: URL) throws -> Running {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        let running = Running(process: process, output: output, errors: errors)
        try process.run()
        return running
    }

    /// A started child process whose output is collected on threads of their own, so that a full pipe
    /// never blocks it.
    final class Running: @unchecked Sendable {
        // The buffers are written by the reader threads and read after `finish` has joined them.
        let process: Process
        private var outputData = Data()
        private var errorData = Data()
        private let readers = DispatchGroup()

        init(process: Process, output: Pipe, errors: Pipe) {
            self.process = process
            for (pipe, isOutput) in [(output, true), (errors, false)] {
                readers.enter()
                Thread.detachNewThread { [self] in
                    let data = pipe.fileHandleForReading.readDataToEndOfFile()
                    if isOutput { outputData = data } else { errorData = data }
                    readers.leave()
                }
            }
        }

        func finish() -> Result {
            process.waitUntilExit()
            readers.wait()
            return Result(
                status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
                errorOutput: String(decoding: errorData, as: UTF8.self))
        }
    }
}

/// A fresh temporary directory, removed after `body`.
func withTemporaryDirectory<T>(_ body: (URL) throws -> T) throws -> T {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("boutique-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try body(directory)
}
