import BoutiqueSQLite
import BoutiqueTestSupport
import Foundation
import Testing

/// The lane the property tests compute in runs their bodies on its own queue, one at a time, and
/// leaves the pool's threads to the other tests.
@Suite struct ComputeLaneTests {
    @Test func computationsRunOnTheLaneOneAtATime() async throws {
        let running = Lock(0)
        let most = Lock(0)
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    await ComputeLane.shared.run {
                        let now = running.withLock { count in
                            count += 1
                            return count
                        }
                        most.withLock { $0 = max($0, now) }
                        usleep(2_000)
                        running.withLock { $0 -= 1 }
                        return ComputeLane.shared.isCurrent
                    }
                }
            }
            for try await onLane in group { #expect(onLane, "a computation ran off the lane") }
        }
        #expect(most.withLock { $0 } == 1, "computations overlapped")
        #expect(!ComputeLane.shared.isCurrent, "the test itself is back off the lane")
    }
}
