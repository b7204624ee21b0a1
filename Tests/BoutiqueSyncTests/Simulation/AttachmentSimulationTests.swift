import BoutiqueSync
import BoutiqueTestSupport
import Foundation
import Testing

/// The attachment simulator over many seeds (`BOUTIQUE_SYNC_SEEDS` picks them, as for
/// ``SyncSimulationTests``): no acknowledged attachment lost, none readable by a non-member.
@Suite struct AttachmentSimulationTests {
    @Test func noAcknowledgedAttachmentIsLostAndNoneIsReadableByANonMember() async throws {
        let seeds = SimulationSeeds.parse(ProcessInfo.processInfo.environment["BOUTIQUE_SYNC_SEEDS"]) ?? Array(TestBudget.cases(24))
        var failures: [(UInt64, [String])] = []
        var totals = AttachmentSimulation.Outcome(failures: [])
        try await withThrowingTaskGroup(of: (UInt64, AttachmentSimulation.Outcome).self) { group in
            var pending = seeds.makeIterator()
            for _ in 0..<4 {
                guard let seed = pending.next() else { break }
                group.addTask { (seed, try await AttachmentSimulation(seed: seed, steps: 90).run()) }
            }
            while let (seed, outcome) = try await group.next() {
                if !outcome.failures.isEmpty { failures.append((seed, outcome.failures)) }
                totals.livePhotos += outcome.livePhotos
                totals.fetched += outcome.fetched
                totals.refusedReads += outcome.refusedReads
                if let seed = pending.next() { group.addTask { (seed, try await AttachmentSimulation(seed: seed, steps: 90).run()) } }
            }
        }
        print("attachment simulation, \(seeds.count) seeds: \(totals.livePhotos) live photos checked after healing, \(totals.fetched) fetched on the way, \(totals.refusedReads) reads of held bytes refused to users who may not read them")
        // The checks must have had something to check: reads by outsiders were tried and refused.
        #expect(totals.refusedReads > 0 && totals.fetched > 0 && totals.livePhotos > 0)
        for (seed, problems) in failures.sorted(by: { $0.0 < $1.0 }).prefix(3) {
            Issue.record(Comment(rawValue: """
                attachment simulation seed \(seed) failed:
                  \(problems.prefix(5).joined(separator: "\n  "))
                replay: BOUTIQUE_SYNC_SEEDS=\(seed)-\(seed) swift test --filter AttachmentSimulationTests
                """))
        }
        #expect(failures.isEmpty, "\(failures.count) of \(seeds.count) seeds failed")
    }
}
