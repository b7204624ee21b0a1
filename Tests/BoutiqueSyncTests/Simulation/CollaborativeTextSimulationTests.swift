import BoutiqueSync
import Foundation
import Testing

/// The collaborative text simulator over many seeds (`BOUTIQUE_SYNC_SEEDS` picks them, as for
/// ``SyncSimulationTests``): after healing, every device equals the server, and each body holds
/// exactly the tokens inserted and not deleted, whole; texts compacted while edits went on included.
@Suite struct CollaborativeTextSimulationTests {
    @Test func collaborativeBodiesConvergeAndKeepEveryInsertNotDeleted() async throws {
        let seeds = SimulationSeeds.parse(ProcessInfo.processInfo.environment["BOUTIQUE_SYNC_SEEDS"]) ?? Array(0..<40)
        let (failures, compacted) = try await withThrowingTaskGroup(of: (UInt64, CollaborativeTextSimulation.Outcome).self) { group in
            var pending = seeds.makeIterator()
            var failed: [(UInt64, [String])] = []
            var compacted = 0
            for _ in 0..<4 {
                guard let seed = pending.next() else { break }
                group.addTask { (seed, try await CollaborativeTextSimulation(seed: seed, deviceCount: 2 + Int(seed % 3), operations: 120).run()) }
            }
            while let (seed, outcome) = try await group.next() {
                if !outcome.failures.isEmpty { failed.append((seed, outcome.failures)) }
                compacted += outcome.compacted
                if let seed = pending.next() {
                    group.addTask { (seed, try await CollaborativeTextSimulation(seed: seed, deviceCount: 2 + Int(seed % 3), operations: 120).run()) }
                }
            }
            return (failed.sorted { $0.0 < $1.0 }, compacted)
        }
        print("collaborative text simulation, \(seeds.count) seeds: \(compacted) texts compacted")
        // Every run ends with a collection after healing: with deletions in 40 seeds, some text compacts.
        #expect(seeds.count < 10 || compacted > 0)
        for (seed, problems) in failures.prefix(3) {
            Issue.record(Comment(rawValue: """
                collaborative text simulation seed \(seed) failed:
                  \(problems.prefix(5).joined(separator: "\n  "))
                replay: BOUTIQUE_SYNC_SEEDS=\(seed)-\(seed) swift test --filter CollaborativeTextSimulationTests
                """))
        }
        #expect(failures.isEmpty, "\(failures.count) of \(seeds.count) seeds failed")
    }
}
