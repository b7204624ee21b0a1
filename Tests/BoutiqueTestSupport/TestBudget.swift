import Foundation

/// How a run's environment stretches the tests: under a sanitizer (`BOUTIQUE_TEST_SANITIZER`, set by CI
/// for those runs) everything is several times slower, so deadlines stretch
/// (`BOUTIQUE_TEST_TIMEOUT_SCALE`) and property tests that only compute run fewer cases.
///
/// Fewer cases matters beyond their own time: a synchronous test case holds a thread of the
/// cooperative pool (one per core) until it ends, and Swift Testing queues every case of a
/// parameterized test at once, so minutes of sanitized computing ahead of them starve the tests that
/// wait on a child process or a deadline.
///
/// ```swift
/// @Test(arguments: TestBudget.cases(40)) func randomScriptsConverge(seed: UInt64) { … }
/// let deadline = TestBudget.scaled(.seconds(60))
/// ```
public enum TestBudget {
    /// Whether the tests run under a sanitizer.
    public static let isSanitized = ProcessInfo.processInfo.environment["BOUTIQUE_TEST_SANITIZER"] != nil

    /// How much longer than usual deadlines are.
    public static let timeoutScale = ProcessInfo.processInfo.environment["BOUTIQUE_TEST_TIMEOUT_SCALE"].flatMap(Double.init) ?? 1

    /// Seeds for `count` cases, or an eighth of them (at least one) under a sanitizer: what such a run
    /// checks is the code's memory and threads, which a few cases exercise as well as many.
    public static func cases(_ count: Int) -> Range<UInt64> { 0..<UInt64(rounds(count)) }

    /// `count` rounds of a loop, or an eighth of them (at least one) under a sanitizer.
    public static func rounds(_ count: Int) -> Int { isSanitized ? max(1, count / 8) : count }

    /// `duration` times ``timeoutScale``.
    public static func scaled(_ duration: Duration) -> Duration { duration * timeoutScale }
}
