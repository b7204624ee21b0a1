import BoutiqueSQLite
import Dispatch
import Foundation

/// Waiting for Ctrl-C (SIGINT) or SIGTERM, so that a long-running command stops cleanly.
enum Signals {
    /// Returns the first of SIGINT or SIGTERM the process receives from now on. The signals' default
    /// action (ending the process at once) is off while this runs, and afterwards.
    static func termination() async -> Int32 {
        await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
            let delivered = Once(continuation)
            for number in [SIGINT, SIGTERM] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { delivered.resume(number) }
                source.resume()
                let kept = KeptSource(source: source)
                sources.withLock { $0.append(kept) }
            }
        }
    }

    /// The sources stay alive for as long as the process: a signal after the first is ignored.
    private static let sources = Lock<[KeptSource]>([])

    /// A signal source, only ever touched to keep it alive.
    private struct KeptSource: @unchecked Sendable {
        let source: any DispatchSourceSignal
    }

    private final class Once: Sendable {
        private let continuation: Lock<CheckedContinuation<Int32, Never>?>
        init(_ continuation: CheckedContinuation<Int32, Never>) { self.continuation = Lock(continuation) }
        func resume(_ number: Int32) {
            continuation.withLock { pending in
                pending?.resume(returning: number)
                pending = nil
            }
        }
    }

    /// The signal's name, for messages.
    static func name(_ number: Int32) -> String { number == SIGINT ? "SIGINT" : number == SIGTERM ? "SIGTERM" : "signal \(number)" }
}
