import BoutiqueSync
@testable import BoutiqueSyncServer
import Foundation
import Testing

/// The long polls a commit wakes are answered together, a few dozen per store read: each still gets
/// its own answer (its device's changes left out, its cursor moved), however many wait, and whatever
/// the page weighs.
@Suite struct WokenPullsTests {
    /// What each poll answered, by replica, once all have.
    private actor Answers {
        private(set) var byReplica: [String: PullResponse] = [:]
        private(set) var failures: [String] = []
        func record(_ replica: String, _ response: PullResponse) { byReplica[replica] = response }
        func fail(_ replica: String, _ error: any Error) { failures.append("\(replica): \(error)") }
        var count: Int { byReplica.count + failures.count }
    }

    /// `pollers` long polls of tenant "t" from `cursor` wait; then `writer` pushes `transaction`. Returns
    /// every poll's answer (a poll still unanswered after the deadline fails the test).
    private static func wake(
        _ server: SyncServer, after first: PushResponse, pollers: [String], cursor: Int64, limit: (Int) -> Int = { _ in 100 },
        pushing transaction: SyncTransaction
    ) async throws -> [String: PullResponse] {
        let answers = Answers()
        // Each phase has its own deadline, long enough that only a hang misses it on a loaded machine:
        // hundreds of polls each read the store first, which took over a minute beside other builds.
        let phase = syncHangDeadline(seconds: 300)
        // A poll outwaits both phases: one that gave up while the last of hundreds were still being read
        // (a CI machine once took over two minutes to read them all) would be answered empty.
        let wait = Int(phase * 3 * 1_000)
        for (index, replica) in pollers.enumerated() {
            let request = PullRequest(replica: replica, cursor: cursor, limit: limit(index), waitMilliseconds: wait)
            Task {
                do { await answers.record(replica, try await server.pull(request, tenant: "t")) } catch { await answers.fail(replica, error) }
            }
        }
        var deadline = ContinuousClock.now + .seconds(phase)
        while await server.waitingPolls(tenant: "t") < pollers.count, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(await server.waitingPolls(tenant: "t") == pollers.count, "every poll waits before the push")
        let pushed = try await SyncStoreContractTests.push(server, [transaction], replica: "writer", base: 1, digest: first.digest)
        #expect(pushed.outcome == .accepted)
        deadline = ContinuousClock.now + .seconds(phase)
        while await answers.count < pollers.count, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(await answers.count == pollers.count, "every woken poll is answered")
        // Polls a failure left waiting end with the test.
        if await answers.count < pollers.count { await server.endLongPolls() }
        #expect(await answers.failures.isEmpty)
        return await answers.byReplica
    }

    @Test(arguments: StoreKind.allCases)
    func everyWokenPollGetsItsOwnAnswerWhenHundredsWait(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let server = SyncStoreContractTests.server(store)
            let first = try await SyncStoreContractTests.push(server, [SyncStoreContractTests.transaction(1)], replica: "writer")
            // More polls than three reads answer, two limits (pages read apart), and the writer's own.
            let pollers = (0..<200).map { "device-\($0)" } + ["writer"]
            let answers = try await Self.wake(
                server, after: first, pollers: pollers, cursor: 1, limit: { $0 % 2 == 0 ? 100 : 1 },
                pushing: SyncStoreContractTests.transaction(2, keys: [.text("a"), .text("b")], title: "woken"))
            for replica in pollers {
                let answer = try #require(answers[replica])
                #expect(answer.outcome == .changes && answer.nextCursor == 3 && !answer.hasMore, "\(replica)")
                let expected = replica == "writer" ? 0 : 2
                #expect(answer.changes.count == expected, "\(replica): its own changes are left out, others' are all there")
                #expect(answer.changes.allSatisfy { $0.change.columns.first?.value == .text("woken") })
            }
            // The writer is a known replica: its cursor was remembered.
            try await server.writePullCursors()
            let writer = try await store.read(tenant: "t") { try $0.replica("writer") }
            #expect(writer?.cursor == 3)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func pagesLargerThanAReadHoldsAreAnsweredAReadEach(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            // A page of 4 KiB: a read answers one such page, then leaves the rest for the next read.
            let server = SyncServer(
                store: store, maximumClockSkewMilliseconds: 60_000, limits: SyncServerLimits(maximumPageBytes: 4_096),
                wallClock: { SyncStoreContractTests.wall })
            let first = try await SyncStoreContractTests.push(server, [SyncStoreContractTests.transaction(1)], replica: "writer")
            let pollers = (0..<80).map { "device-\($0)" }
            let large = String(repeating: "x", count: 20_000)
            let answers = try await Self.wake(
                server, after: first, pollers: pollers, cursor: 1, pushing: SyncStoreContractTests.transaction(2, title: large))
            for replica in pollers {
                let answer = try #require(answers[replica])
                #expect(answer.nextCursor == 2 && answer.changes.count == 1, "\(replica)")
                #expect(answer.changes.first?.change.columns.first?.value == .text(large))
            }
        }
    }
}
