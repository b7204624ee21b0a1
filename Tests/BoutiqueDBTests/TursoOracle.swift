import BoutiqueSQLite
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

    /// Runs `python3` with `arguments` and waits for it.
    static func python(_ arguments: [String]) async throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        let finished = Lock<CheckedContinuation<Int32, Never>?>(nil)
        let status = Lock<Int32?>(nil)
        process.terminationHandler = { process in
            let code = process.terminationStatus
            let waiter = finished.withLock { waiter -> CheckedContinuation<Int32, Never>? in
                status.withLock { $0 = code }
                return waiter.take()
            }
            waiter?.resume(returning: code)
        }
        try process.run()
        // Read while it runs, so that a full pipe never blocks the script.
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        let code = await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
            let known = finished.withLock { waiter -> Int32? in
                if let code = status.withLock({ $0 }) { return code }
                waiter = continuation
                return nil
            }
            if let known { continuation.resume(returning: known) }
        }
        return Outcome(status: code, output: String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
