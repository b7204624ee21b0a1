@testable import BoutiqueSyncServer
import BoutiqueSQLite
import Testing

/// Freed memory is handed back when there is some, reported only when some came back, and an idle
/// server does not log a release every few seconds.
@Suite struct MemoryReleaseTests {
    /// A process whose resident size is what the test sets, and whose releases bring it to `kept`.
    final class FakeProcess: Sendable {
        let resident = Lock(0)
        let kept = Lock(0)
        let releases = Lock(0)

        func release() -> MemoryRelease {
            MemoryRelease(
                measure: { self.resident.withLock { $0 } },
                release: {
                    self.releases.withLock { $0 += 1 }
                    let kept = self.kept.withLock { $0 }
                    self.resident.withLock { $0 = min($0, kept) }
                })
        }
    }

    static let megabyte = 1_048_576

    @Test func aReleaseThatGivesNothingBackIsNotReportedNorTriedAgainAtTheSameSize() async {
        let process = FakeProcess()
        var release = process.release()
        process.resident.withLock { $0 = 40 * Self.megabyte }
        var answer = await release.releaseIfWorthIt()
        #expect(answer == nil, "the first check only notes the size")
        // The process grew by 20 MB it still uses: a release gives back nothing.
        process.resident.withLock { $0 = 60 * Self.megabyte }
        process.kept.withLock { $0 = 60 * Self.megabyte }
        answer = await release.releaseIfWorthIt()
        #expect(answer == nil)
        #expect(process.releases.withLock { $0 } == 1)
        for _ in 0..<5 {
            answer = await release.releaseIfWorthIt()
            #expect(answer == nil)
        }
        #expect(process.releases.withLock { $0 } == 1, "idle at the size a release left: not walked again")
        // Growing past that by more than the threshold, with memory to give back, releases and reports.
        process.resident.withLock { $0 = 80 * Self.megabyte }
        process.kept.withLock { $0 = 62 * Self.megabyte }
        let released = await release.releaseIfWorthIt()
        #expect(released?.before == 80 * Self.megabyte && released?.after == 62 * Self.megabyte)
        #expect(process.releases.withLock { $0 } == 2)
    }

    @Test func aReleaseUnderAMegabyteIsNotReported() async {
        let process = FakeProcess()
        var release = process.release()
        process.resident.withLock { $0 = 40 * Self.megabyte }
        _ = await release.releaseIfWorthIt()
        process.resident.withLock { $0 = 50 * Self.megabyte }
        process.kept.withLock { $0 = 50 * Self.megabyte - 512 * 1_024 }
        var answer = await release.releaseIfWorthIt()
        #expect(answer == nil)
        process.resident.withLock { $0 = 50 * Self.megabyte }
        process.kept.withLock { $0 = 48 * Self.megabyte }
        answer = await release.releaseIfWorthIt()
        #expect(answer == nil, "not 8 MB over the size the last release left")
        #expect(process.releases.withLock { $0 } == 1)
    }

    @Test func reportsComeAtMostOncePerInterval() {
        var reports = ReportInterval(minimum: .seconds(60))
        let start = ContinuousClock.now
        let allowed = [0, 10, 59, 60, 61, 125].map { seconds in reports.allows(at: start.advanced(by: .seconds(seconds))) }
        #expect(allowed == [true, false, false, true, false, true])
    }

    @Test func aMapThresholdTheProcessWasStartedWithIsTheOperatorsAndKept() {
        #expect(MemoryRelease.setsMapThreshold(["MALLOC_MMAP_THRESHOLD_": "65536"]))
        #expect(MemoryRelease.setsMapThreshold(["GLIBC_TUNABLES": "glibc.malloc.mmap_threshold=65536"]))
        #expect(MemoryRelease.setsMapThreshold(["GLIBC_TUNABLES": "glibc.malloc.arena_max=2:glibc.malloc.mmap_threshold=1048576"]))
        #expect(!MemoryRelease.setsMapThreshold([:]))
        #expect(!MemoryRelease.setsMapThreshold(["GLIBC_TUNABLES": "glibc.malloc.arena_max=2", "MALLOC_ARENA_MAX": "2"]))
        #expect(!MemoryRelease.setsMapThreshold(["GLIBC_TUNABLES": "glibc.malloc.mmap_threshold_x=1"]))
    }
}
