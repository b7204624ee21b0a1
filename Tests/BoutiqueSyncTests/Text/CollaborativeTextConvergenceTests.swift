import BoutiqueSyncCore
import BoutiqueTestSupport
import Testing

/// Random edit scripts on two to five replicas, delivered in random orders with repeats: every replica
/// ends with the same text and the same bytes, each replica's own edits do what they say, merging never
/// reorders characters a replica already had, and no character is lost or doubled.
@Suite struct CollaborativeTextConvergenceTests {
    @Test(arguments: TestBudget.cases(40))
    func randomScriptsConverge(seed: UInt64) async throws {
        try await ComputeLane.shared.run {
            var random = SeededRandom(seed: 1_000 + seed)
            var replicas = TextReplicas(count: random.int(in: 2...5))
            for _ in 0..<random.int(in: 20...80) {
                try replicas.step(&random)
            }
            try replicas.deliverAll(&random)
            replicas.expectConverged()

            // Exactly the characters inserted and never deleted are there, once each.
            var inserted: [TextElementID] = []
            var deleted: Set<TextElementID> = []
            for operation in replicas.made {
                switch operation {
                case .insert(let insertion):
                    inserted += (0..<insertion.scalars.count).map { TextElementID(replica: insertion.id.replica, counter: insertion.id.counter + $0) }
                case .delete(let deletion):
                    for range in deletion.ranges {
                        for offset in 0..<range.count { deleted.insert(TextElementID(replica: range.start.replica, counter: range.start.counter + offset)) }
                    }
                }
            }
            let visible = replicas.texts[0].visibleElementIDs
            #expect(Set(visible).count == visible.count)
            #expect(Set(visible) == Set(inserted).subtracting(deleted))
        }
    }

    /// Concurrent edits in different places both survive, in the places their writers meant.
    @Test func concurrentEditsInDifferentPlacesBothSurvive() throws {
        var phone = CollaborativeText()
        var laptop = CollaborativeText()
        try laptop.apply(try phone.insert("Hello world", at: 0, by: "phone"))
        let comma = try phone.insert(",", at: 5, by: "phone")
        let bang = try laptop.insert("!", at: 11, by: "laptop")
        let cut = try #require(try laptop.delete(0..<1, by: "laptop"))
        try phone.apply([bang, cut])
        try laptop.apply(comma)
        #expect(phone.text == "ello, world!")
        #expect(laptop.text == phone.text)
    }

    /// A deletion removes only what its writer saw: text typed concurrently inside the deleted range stays.
    @Test func deletionSparesConcurrentInsertions() throws {
        var a = CollaborativeText()
        var b = CollaborativeText()
        try b.apply(try a.insert("abcdef", at: 0, by: "a"))
        let cut = try #require(try a.delete(1..<5, by: "a"))
        let inside = try b.insert("XY", at: 3, by: "b")
        try a.apply(inside)
        try b.apply(cut)
        #expect(a.text == "aXYf")
        #expect(b.text == "aXYf")
    }

    /// An operation that arrives before one it depends on waits, then applies; repeats change nothing.
    @Test func earlyOperationsWaitForTheirDependencies() throws {
        var writer = CollaborativeText()
        let one = try writer.insert("one", at: 0, by: "w")
        let two = try writer.insert(" two", at: 3, by: "w")
        let cut = try #require(try writer.delete(0..<1, by: "w"))
        var reader = CollaborativeText()
        try reader.apply(cut)
        try reader.apply(two)
        #expect(reader.text == "")
        #expect(reader.waitingCount == 2)
        try reader.apply(one)
        #expect(reader.waitingCount == 0)
        #expect(reader.text == "ne two")
        try reader.apply([two, one, cut])
        #expect(reader.record() == writer.record())
    }

    /// Bad input is refused with an error and changes nothing.
    @Test func malformedOperationsAndEditsAreRefused() throws {
        var text = CollaborativeText()
        _ = try text.insert("abc", at: 0, by: "a")
        let before = text.record()
        #expect(throws: BoutiqueError.self) { try text.insert("x", at: 4, by: "a") }
        #expect(throws: BoutiqueError.self) { try text.insert("", at: 0, by: "a") }
        #expect(throws: BoutiqueError.self) { try text.delete(2..<4, by: "a") }
        let leftOfStart = TextInsertion(id: TextElementID(replica: "b", counter: 0), text: "x", parent: nil, side: .left, rightOrigin: nil)
        #expect(throws: BoutiqueError.self) { try text.apply(.insert(leftOfStart)) }
        let empty = TextInsertion(id: TextElementID(replica: "b", counter: 0), text: "", parent: nil, side: .right, rightOrigin: nil)
        #expect(throws: BoutiqueError.self) { try text.apply(.insert(empty)) }
        let negative = TextDeletion(id: TextElementID(replica: "b", counter: 0), ranges: [TextElementRange(start: TextElementID(replica: "a", counter: -1), count: 1)])
        #expect(throws: BoutiqueError.self) { try text.apply(.delete(negative)) }
        #expect(text.record() == before)
    }
}
