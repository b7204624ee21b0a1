@testable import BoutiqueDB
import Foundation
import Synchronization
import Testing

/// The writer's executor: one thread of its own, jobs in order, and no thread left behind.
@Suite struct ThreadExecutorTests {
    /// An actor whose jobs run on a ``ThreadExecutor``.
    actor Recorder {
        nonisolated let executor: ThreadExecutor
        nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
        private var entries: [Int] = []
        private var threads: Set<ObjectIdentifier> = []
        private var everOffExecutorThread = false

        init(
            idleSpin: Duration = ThreadExecutor.idleSpin, shouldSpin: @escaping @Sendable () -> Bool = { true },
            onExit: (@Sendable () -> Void)? = nil
        ) {
            executor = ThreadExecutor(name: "test.recorder", idleSpin: idleSpin, shouldSpin: shouldSpin, onExit: onExit)
        }

        func record(_ value: Int) {
            entries.append(value)
            threads.insert(ObjectIdentifier(Thread.current))
            if !ThreadExecutor.isOnExecutorThread || Thread.isMainThread { everOffExecutorThread = true }
        }

        func summary() -> (entries: [Int], threadCount: Int, everOffExecutorThread: Bool) {
            (entries, threads.count, everOffExecutorThread)
        }
    }

    @Test func jobsRunInOrderOnOneThreadOfTheirOwn() async {
        let recorder = Recorder()
        for value in 0..<500 { await recorder.record(value) }
        // Jobs sent without waiting, from many tasks, are still run one at a time by the same thread.
        await withTaskGroup(of: Void.self) { group in
            for value in 500..<1000 { group.addTask { await recorder.record(value) } }
        }
        let summary = await recorder.summary()
        #expect(Array(summary.entries.prefix(500)) == Array(0..<500))
        #expect(summary.entries.sorted() == Array(0..<1000))
        #expect(summary.threadCount == 1)
        #expect(!summary.everOffExecutorThread)
    }

    @Test func theThreadEndsWhenItsExecutorGoesAway() async {
        let exited = Atomic<Int>(0)
        let recorders = 20
        do {
            var kept: [Recorder] = []
            for _ in 0..<recorders {
                let recorder = Recorder(onExit: { exited.add(1, ordering: .relaxed) })
                await recorder.record(1)
                kept.append(recorder)
            }
            #expect(exited.load(ordering: .relaxed) == 0)
        }
        let deadline = ContinuousClock.now.advanced(by: .seconds(hangDeadline(seconds: 10)))
        while exited.load(ordering: .relaxed) < recorders, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        #expect(exited.load(ordering: .relaxed) == recorders)
    }

    @Test func aThreadToldNotToSpinSleepsAsSoonAsItsJobsAreDone() async {
        // A spin of five minutes that the condition cuts short: the thread must be asleep long before
        // (the wait below gives up after a minute, however busy the machine is).
        let asked = Atomic<Int>(0)
        let recorder = Recorder(idleSpin: .seconds(300), shouldSpin: {
            asked.add(1, ordering: .relaxed)
            return false
        })
        await recorder.record(1)
        let deadline = ContinuousClock.now.advanced(by: .seconds(hangDeadline(seconds: 3)))
        while !recorder.executor.isSleeping, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        #expect(recorder.executor.isSleeping)
        #expect(asked.load(ordering: .relaxed) > 0)
        // Asleep, it still wakes for the next job.
        await recorder.record(2)
        #expect(await recorder.summary().entries == [1, 2])
    }

    /// What the database's writer asks before it spins between writes.
    @Test func thePoolTellsWhileAReadHoldsAReader() async throws {
        let directory = try TemporaryDirectory()
        let database = try await DatabaseActor.open(url: directory.file("spin.db"))
        #expect(!database.readers.hasReadsInProgress)
        let duringRead = try await database.read { _ in database.readers.hasReadsInProgress }
        #expect(duringRead)
        #expect(!database.readers.hasReadsInProgress)
        await database.close()
        _ = directory
    }

    @Test func isOnExecutorThreadIsFalseElsewhere() async {
        #expect(!ThreadExecutor.isOnExecutorThread)
        let elsewhere = await Task.detached { ThreadExecutor.isOnExecutorThread }.value
        #expect(!elsewhere)
    }
}
