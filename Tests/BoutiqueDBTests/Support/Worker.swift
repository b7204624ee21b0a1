import Foundation

/// Runs `BoutiqueTestWorker`, the package's helper executable, as a real child process.
enum Worker {
    struct NotFound: Error, CustomStringConvertible {
        let searched: [String]
        var description: String { "BoutiqueTestWorker not found; looked in \(searched)" }
    }

    /// The worker executable, built beside the test bundle.
    ///
    /// On Linux the test bundle is an executable in the build folder (`.build/debug`), and
    /// `Bundle.main.bundleURL` is that folder; on macOS the bundle is `.xctest` inside it.
    /// `BOUTIQUE_TEST_WORKER` overrides.
    static func executableURL() throws -> URL {
        var candidates: [URL] = []
        if let explicit = ProcessInfo.processInfo.environment["BOUTIQUE_TEST_WORKER"] {
            candidates.append(URL(fileURLWithPath: explicit))
        }
        let bundle = Bundle.main.bundleURL
        candidates.append(bundle.appendingPathComponent("BoutiqueTestWorker"))
        candidates.append(bundle.deletingLastPathComponent().appendingPathComponent("BoutiqueTestWorker"))
        for testBundle in Bundle.allBundles where testBundle.bundleURL.pathExtension == "xctest" {
            candidates.append(testBundle.bundleURL.deletingLastPathComponent().appendingPathComponent("BoutiqueTestWorker"))
        }
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        candidates.append(executable.deletingLastPathComponent().appendingPathComponent("BoutiqueTestWorker"))
        if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) {
            return found
        }
        throw NotFound(searched: candidates.map(\.path))
    }

    struct Outcome: Sendable, CustomStringConvertible {
        let status: Int32
        let output: String
        var succeeded: Bool { status == 0 && output.hasPrefix("ok") }
        var description: String { "status \(status): \(output)" }
    }

    /// Starts the worker with `arguments` and returns its exit status and output once it exits.
    static func run(_ arguments: [String]) async throws -> Outcome {
        let process = try start(arguments)
        return await finish(process)
    }

    /// Starts the worker without waiting for it.
    static func start(_ arguments: [String]) throws -> RunningWorker {
        let process = Process()
        process.executableURL = try executableURL()
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        let running = RunningWorker(pipe: pipe)
        process.terminationHandler = { finished in running.exited(status: finished.terminationStatus) }
        try process.run()
        return running
    }

    static func finish(_ worker: RunningWorker) async -> Outcome {
        let status = await worker.status()
        let data = worker.pipe.fileHandleForReading.readDataToEndOfFile()
        let output = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return Outcome(status: status, output: output)
    }
}

/// A worker process that was started; its exit status arrives through the termination handler.
final class RunningWorker: Sendable {
    let pipe: Pipe
    private let exitStatus = Box<Int32?>(nil)

    init(pipe: Pipe) { self.pipe = pipe }

    func exited(status: Int32) { exitStatus.value = status }

    func status() async -> Int32 {
        while true {
            if let status = exitStatus.value { return status }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }
}
