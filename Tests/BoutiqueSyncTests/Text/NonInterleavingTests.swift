import BoutiqueSyncCore
import BoutiqueTestSupport
import Testing

/// Runs typed concurrently at the same place come out whole, one after the other: the cases of the
/// Fugue paper (forwards, backwards, one of each) and random mixes of typing orders on up to five
/// replicas.
@Suite struct NonInterleavingTests {
    /// How a replica types its word: in order, last letter first, or in any order.
    enum Typing: CaseIterable { case forwards, backwards, scattered }

    /// Types `word` at `offset` of `text` as `replica`, one scalar per operation, in the given order,
    /// so that the word ends up whole at `offset` on that replica.
    static func type(_ word: String, at offset: Int, into text: inout CollaborativeText, by replica: String,
                     _ typing: Typing, _ random: inout SeededRandom) throws -> [TextOperation] {
        let scalars = Array(word.unicodeScalars)
        var order = Array(scalars.indices)
        switch typing {
        case .forwards: break
        case .backwards: order.reverse()
        case .scattered: order.shuffle(using: &random)
        }
        var typed: [Int] = []
        var operations: [TextOperation] = []
        for index in order {
            let position = offset + typed.filter { $0 < index }.count
            operations.append(try text.insert(String(scalars[index]), at: position, by: replica))
            typed.append(index)
        }
        return operations
    }

    /// The text of `base` with each writer's word typed concurrently at `offset`, merged everywhere.
    static func merge(base: String, offset: Int, words: [String], typings: [Typing], _ random: inout SeededRandom) throws -> [String] {
        var origin = CollaborativeText()
        if !base.isEmpty { _ = try origin.insert(base, at: 0, by: "origin") }
        var replicas = Array(repeating: origin, count: words.count)
        var typed: [[TextOperation]] = []
        for index in words.indices {
            typed.append(try type(words[index], at: offset, into: &replicas[index], by: "writer-\(index)", typings[index], &random))
            #expect(replicas[index].text == RandomText.replacing(base, offset..<offset, with: words[index]))
        }
        var results: [String] = []
        for index in replicas.indices {
            for other in typed.indices.shuffled(using: &random) where other != index { try replicas[index].apply(typed[other]) }
            results.append(replicas[index].text)
        }
        return results
    }

    /// Whether `text` is `base` with the words, each whole, in some order, at `offset` (compared by
    /// scalars: an offset may fall between a letter and its accent).
    static func isWhole(_ text: String, base: String, offset: Int, words: [String]) -> Bool {
        let scalars = Array(base.unicodeScalars)
        var middle = Array(text.unicodeScalars)
        guard middle.count == scalars.count + words.map({ $0.unicodeScalars.count }).reduce(0, +),
              Array(middle.prefix(offset)) == Array(scalars.prefix(offset)),
              Array(middle.suffix(scalars.count - offset)) == Array(scalars.suffix(scalars.count - offset)) else { return false }
        middle = Array(middle.dropFirst(offset).dropLast(scalars.count - offset))
        // Peel whole words off the front, in whichever order they came.
        var remaining = words.map { Array($0.unicodeScalars) }
        while !remaining.isEmpty {
            guard let next = remaining.firstIndex(where: { middle.starts(with: $0) }) else { return false }
            middle.removeFirst(remaining[next].count)
            remaining.remove(at: next)
        }
        return middle.isEmpty
    }

    @Test(arguments: [(Typing.forwards, Typing.forwards), (.backwards, .backwards), (.forwards, .backwards), (.backwards, .forwards)])
    func twoWritersAtTheSamePlace(first: Typing, second: Typing) throws {
        var random = SeededRandom(seed: 7)
        for (base, offset) in [("", 0), ("xy", 1), ("xy", 0), ("xy", 2)] {
            let results = try Self.merge(base: base, offset: offset, words: ["milk", "eggs"], typings: [first, second], &random)
            #expect(results.allSatisfy { $0 == results[0] })
            #expect(Self.isWhole(results[0], base: base, offset: offset, words: ["milk", "eggs"]), "\(results[0])")
        }
    }

    @Test(arguments: TestBudget.cases(60))
    func randomWritersAndTypingOrdersNeverInterleave(seed: UInt64) async throws {
        try await ComputeLane.shared.run {
            var random = SeededRandom(seed: 500 + seed)
            let base = RandomText.string(&random, length: 0...8)
            let offset = random.int(in: 0...base.unicodeScalars.count)
            let writers = random.int(in: 2...5)
            let words = (0..<writers).map { index in "\(index)" + String(repeating: ["a", "b", "c", "d", "e"][index], count: random.int(in: 1...5)) }
            let typings = (0..<writers).map { _ in random.pick(Typing.allCases) }
            let results = try Self.merge(base: base, offset: offset, words: words, typings: typings, &random)
            #expect(results.allSatisfy { $0 == results[0] })
            #expect(Self.isWhole(results[0], base: base, offset: offset, words: words), "\(results[0]) from \(words) typed \(typings)")
        }
    }
}
