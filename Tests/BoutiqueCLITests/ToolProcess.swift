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

    /// Starts `boutique arguments…` without waiting.
    static func start(_ arguments: [String], in directory: URL) throws -> Running {
        Running(process: try ChildProcess("boutique", arguments, in: directory))
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
