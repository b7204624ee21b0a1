import Foundation

/// How much longer than usual the sync tests' deadlines are: `BOUTIQUE_TEST_TIMEOUT_SCALE`, for runs
/// under a sanitizer, which slows everything several times over.
let syncTimeoutScale = ProcessInfo.processInfo.environment["BOUTIQUE_TEST_TIMEOUT_SCALE"].flatMap(Double.init) ?? 1
