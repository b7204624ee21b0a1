@testable import BoutiqueSyncCore
import BoutiqueTestSupport
import Testing

/// Merging whole states (a snapshot meeting a device's own edits) is a join: in any order and
/// grouping, repeated or not, the result is the state of a replica that applied every operation, byte
/// for byte.
@Suite struct CollaborativeTextMergeTests {
    @Test(arguments: TestBudget.cases(40))
    func mergedStatesEqualOneReplicaThatAppliedEverything(seed: UInt64) async throws {
        try await ComputeLane.shared.run {
            var random = SeededRandom(seed: 7_000 + seed)
            var replicas = TextReplicas(count: random.int(in: 2...4))
            for _ in 0..<random.int(in: 10...50) {
                try replicas.step(&random)
            }
            var everything = CollaborativeText()
            try everything.apply(replicas.made)
            // Each replica's state merged into the others', in a random order, some twice.
            var order = Array(replicas.texts.indices)
            order.shuffle(using: &random)
            var merged = replicas.texts[order[0]]
            for index in order.dropFirst() + [order[0]] { try merged.merge(replicas.texts[index]) }
            #expect(merged.text == everything.text)
            #expect(merged.record() == everything.record())
            // The other way round, from the last.
            var reversed = replicas.texts[order.last!]
            for index in order.reversed() { try reversed.merge(replicas.texts[index]) }
            #expect(reversed.record() == everything.record())
        }
    }

    /// A replica that missed a deletion (a pulled page lost on the way) and then takes a state that
    /// compacted the deleted characters away deletes them too: they were deleted there, or they would
    /// not have been compacted.
    @Test func charactersAStateCompactedAwayAreDeletedWhereItIsMerged() throws {
        var server = CollaborativeText()
        var phone = CollaborativeText()
        try phone.apply(try server.insert("Milk, eggs and bread", at: 0, by: "laptop"))
        // The laptop's deletion of ", eggs and bread" never reaches the phone; the server compacts it away.
        _ = try server.delete(4..<20, by: "laptop")
        try server.compact(stableThrough: server.version)
        #expect(server.tombstoneCount == 0 && server.text == "Milk")
        // The phone types meanwhile, then takes the server's state.
        _ = try phone.insert("Fresh ", at: 0, by: "phone")
        try phone.merge(server)
        #expect(phone.text == "Fresh Milk")
        // Merged the other way, the same text.
        var other = server
        try other.merge(phone)
        #expect(other.text == "Fresh Milk")
    }

    @Test func aMergedStateGoesOnTakingOperations() throws {
        var phone = CollaborativeText()
        var laptop = CollaborativeText()
        let hello = try phone.insert("Hello", at: 0, by: "phone")
        try laptop.apply(hello)
        _ = try phone.insert(" world", at: 5, by: "phone")
        _ = try laptop.insert("Oh, ", at: 0, by: "laptop")
        var server = phone
        try server.merge(laptop)
        #expect(server.text == "Oh, Hello world")
        // Both sides' next operations apply to the merged state.
        try server.apply(try phone.delete(0..<1, by: "phone")!)
        try server.apply(try laptop.insert("!", at: 9, by: "laptop"))
        #expect(server.text == "Oh, ello! world")
    }
}
