import BoutiqueTestSupport
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

    /// Starts the worker without waiting for it; its standard error is part of its output.
    static func start(_ arguments: [String]) throws -> RunningWorker {
        RunningWorker(try ChildProcess(executable: executableURL(), arguments, mergingErrors: true))
    }

    static func finish(_ worker: RunningWorker) async -> Outcome {
        let exit = await worker.exit()
        return Outcome(status: exit.status, output: exit.output.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}

/// A worker process that was started, read and waited for by a ``ChildProcess``.
final class RunningWorker: Sendable {
    private let process: ChildProcess

    init(_ process: ChildProcess) { self.process = process }

    /// The output so far.
    var output: String { process.output }

    /// Ends the process at once, as a crash or `kill -9` would.
    func kill() { process.send(SIGKILL) }

    /// How it ended, once it has (a worker still running after ten minutes is killed).
    func exit() async -> ChildProcess.Exit { await process.wait(timeout: .seconds(600)) }

    func status() async -> Int32 { await exit().status }

    /// The whole output, once the process has ended and closed it.
    func completeOutput() async -> String { await exit().output }
}
