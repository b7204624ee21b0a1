import BoutiqueSQLite
import BoutiqueTestSupport
import Foundation
import Testing

/// The Turso engine (`pyturso`) as a test oracle: runs the Python scripts in `Scripts/`.
///
/// When `import turso` fails the tests cannot check anything: with `CI` set that is a failure (CI
/// installs pyturso), elsewhere the test is skipped with a printed reason.
enum TursoOracle {
    struct Outcome {
        let status: Int32
        let output: String
    }

    /// The folder holding the Python scripts.
    static let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Scripts")

    /// `true` when Python can import `turso`; otherwise records an issue (CI) or prints why the test is skipped.
    static func isAvailable(for test: String) async -> Bool {
        let outcome = try? await python(["-c", "import turso; print('ok')"])
        if let outcome, outcome.status == 0 { return true }
        let reason = "pyturso is not importable (\(outcome?.output ?? "python3 did not run")); install it with `pip install pyturso`"
        if ProcessInfo.processInfo.environment["CI"] != nil {
            Issue.record("\(test) needs the Turso engine: \(reason)")
        } else {
            print("skipped \(test): \(reason)")
        }
        return false
    }

    /// Runs a script of `Scripts/` with `arguments`.
    static func run(_ script: String, _ arguments: [String]) async throws -> Outcome {
        try await python([scripts.appendingPathComponent(script).path] + arguments)
    }

    /// Runs `python3` with `arguments` and waits for it, suspended (a blocking read here would hold one of
    /// the cooperative pool's threads, which every other test's deadline shares, for the whole script).
    static func python(_ arguments: [String]) async throws -> Outcome {
        let child = try ChildProcess(executable: URL(fileURLWithPath: "/usr/bin/env"), ["python3"] + arguments, mergingErrors: true)
        let exit = await child.wait(timeout: .seconds(300))
        return Outcome(status: exit.status, output: exit.output.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
