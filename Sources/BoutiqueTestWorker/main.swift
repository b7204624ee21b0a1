// A separate process for the tests that need more than one: several processes writing one file,
// racing to migrate it, or opening a file as a user who may not write it.
//
//     BoutiqueTestWorker insert <path> <count> <tag> [--start-at <unix seconds>] [--pause <seconds>]
//     BoutiqueTestWorker migrate <path> [--start-at <unix seconds>]
//     BoutiqueTestWorker open <path> [--as-nobody]
//     BoutiqueTestWorker write-until-killed <path>
//     BoutiqueTestWorker attachment-put <path> <file> <content type>
//     BoutiqueTestWorker stamp <path> stamp|other <count> [--pause <seconds>]
//     BoutiqueTestWorker ledger-until-killed | load | hold-exclusive … (see ReliabilityWorkerCommand)
//
// It prints one line: `ok ...`, or `error: ...` (with `error: sql <extended code>` for SQLite errors)
// and exits with status 1.
import BoutiqueDB
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let arguments = Array(CommandLine.arguments.dropFirst())

// A worker outlives no test run: when the process that started it is gone (a crashed test process),
// it ends too, so that nothing keeps the run's output pipes open.
let parent = getppid()
Thread.detachNewThread {
    while getppid() == parent { usleep(200_000) }
    exit(3)
}

do {
    let output: String
    if let changeCommand = try ChangeWorkerCommand(arguments: arguments) {
        output = try await changeCommand.run()
    } else if let reliabilityCommand = try ReliabilityWorkerCommand(arguments: arguments) {
        output = try await reliabilityCommand.run()
    } else {
        output = try await WorkerCommand(arguments: arguments).run()
    }
    print("ok \(output)")
} catch let error as BoutiqueError {
    if case .sql(let code, let message) = error {
        print("error: sql \(code.rawValue) \(message.text)")
    } else {
        print("error: \(error)")
    }
    exit(1)
} catch {
    print("error: \(error)")
    exit(1)
}
