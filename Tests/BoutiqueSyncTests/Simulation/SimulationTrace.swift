import Foundation

/// Tracing switches for following one seed, read once (reading the environment builds it anew).
///
/// `BOUTIQUE_SYNC_TRACE=1` prints every step, write and healing round, keeps the change logs unpruned
/// and dumps the states of rows that differ; `BOUTIQUE_SYNC_WATCH=n7` also prints that note's row and
/// state on every device after each step.
enum SimulationTrace {
    static let isOn = ProcessInfo.processInfo.environment["BOUTIQUE_SYNC_TRACE"] != nil
    static let watchedKey = ProcessInfo.processInfo.environment["BOUTIQUE_SYNC_WATCH"]
}
