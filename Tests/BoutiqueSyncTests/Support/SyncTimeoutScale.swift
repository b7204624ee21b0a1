import BoutiqueTestSupport
import Foundation

/// How much longer than usual the sync tests' deadlines are: `BOUTIQUE_TEST_TIMEOUT_SCALE`, for runs
/// under a sanitizer, which slows everything several times over.
let syncTimeoutScale = TestBudget.timeoutScale

/// How long a sync test waits for something that must happen before it calls it a hang: `seconds`
/// times ``syncTimeoutScale``, and never under a minute.
///
/// The wait ends as soon as the event comes, so a generous deadline costs a passing run nothing; a
/// short one fails on a busy machine (a laptop building beside the tests) for no fault of the code.
func syncHangDeadline(seconds: Double) -> Double { max(seconds * syncTimeoutScale, 60) }
