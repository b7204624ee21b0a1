import BoutiqueTestSupport
import Foundation

/// The built `boutique` executable, run as a child process.
struct ToolProcess {
    struct Result {
        var status: Int32
        var output: String
        var errorOutput: String
    }

    /// Runs `boutique arguments…` in `directory` and waits for it to end.
    static func run(_ arguments: [String], in directory: URL) async throws -> Result {
        try await start(arguments, in: directory).finish()
    }

    /// Starts `boutique arguments…` without waiting, with `environment` added to the test's own.
    static func start(_ arguments: [String], in directory: URL, environment: [String: String] = [:]) throws -> Running {
        guard !environment.isEmpty else { return Running(process: try ChildProcess("boutique", arguments, in: directory)) }
        // Through env(1): the child process helper passes the test's environment on unchanged.
        let assignments = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        return Running(
            process: try ChildProcess(
                executable: URL(fileURLWithPath: "/usr/bin/env"),
                assignments + [ChildProcess.executable("boutique").path] + arguments, in: directory))
    }

    /// Runs `boutique arguments…` with `environment` added to the test's own, and waits for it to end.
    static func run(_ arguments: [String], in directory: URL, environment: [String: String]) async throws -> Result {
        try await start(arguments, in: directory, environment: environment).finish()
    }

    /// A started `boutique`.
    struct Running {
        let process: ChildProcess

        /// Waits for it to end (suspending, never blocking a thread of the cooperative pool).
        func finish() async -> Result {
            let exit = await process.wait(timeout: .seconds(300))
            return Result(status: exit.status, output: exit.output, errorOutput: exit.errors)
        }
    }
}

/// A fresh temporary directory, removed after `body`.
func withTemporaryDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("boutique-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try await body(directory)
}
