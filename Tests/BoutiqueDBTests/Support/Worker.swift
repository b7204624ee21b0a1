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
        let running = RunningWorker()
        process.terminationHandler = { finished in running.exited(status: finished.terminationStatus) }
        try process.run()
        // A thread of its own reads the output as it comes (blocking reads stay off the cooperative pool).
        let output = pipe.fileHandleForReading
        Thread.detachNewThread {
            while true {
                let data = output.availableData
                running.received(data)
                if data.isEmpty { break }
            }
        }
        running.started(processIdentifier: process.processIdentifier)
        return running
    }

    static func finish(_ worker: RunningWorker) async -> Outcome {
        let status = await worker.status()
        let output = await worker.completeOutput().trimmingCharacters(in: .whitespacesAndNewlines)
        return Outcome(status: status, output: output)
    }
}

/// A worker process that was started; its output arrives from a reading thread, its exit status from
/// the termination handler.
final class RunningWorker: Sendable {
    private let exitStatus = Box<Int32?>(nil)
    private let processIdentifier = Box<Int32?>(nil)
    private let outputBytes = Box<Data>(Data())
    private let outputEnded = Box(false)

    func started(processIdentifier: Int32) { self.processIdentifier.value = processIdentifier }

    func exited(status: Int32) { exitStatus.value = status }

    /// Called with each chunk of output; an empty chunk is the end of it.
    func received(_ data: Data) {
        if data.isEmpty {
            outputEnded.value = true
        } else {
            outputBytes.update { $0.append(data) }
        }
    }

    /// The output so far.
    var output: String { String(decoding: outputBytes.value, as: UTF8.self) }

    /// The whole output, once the process has closed it (or what came within ten seconds).
    func completeOutput() async -> String {
        let deadline = Date().addingTimeInterval(10)
        while !outputEnded.value, Date() < deadline { try? await Task.sleep(for: .milliseconds(5)) }
        return output
    }

    /// Ends the process at once, as a crash or `kill -9` would.
    func kill() {
        if let processIdentifier = processIdentifier.value { _ = Foundation.kill(processIdentifier, SIGKILL) }
    }

    func status() async -> Int32 {
        while true {
            if let status = exitStatus.value { return status }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }
}
