@testable import BoutiqueSyncCore
import BoutiqueTestSupport
import Testing

/// States and operations as records: they read back as they were, text one writer typed costs a few
/// bytes per run, and damaged bytes are refused with an error, never a trap.
@Suite struct CollaborativeTextRecordTests {
    /// A state from a random history on three replicas, some operations still waiting.
    static func randomState(_ random: inout SeededRandom) throws -> CollaborativeText {
        var replicas = TextReplicas(count: 3)
        for _ in 0..<random.int(in: 5...30) { try replicas.step(&random) }
        return replicas.texts[random.below(3)]
    }

    @Test func statesAndOperationsReadBack() throws {
        var random = SeededRandom(seed: 77)
        var sawWaiting = false
        for _ in 0..<100 {
            let state = try Self.randomState(&random)
            sawWaiting = sawWaiting || state.waitingCount > 0
            let read = try CollaborativeText(record: state.record())
            #expect(read.record() == state.record())
            #expect(read.text == state.text)
            #expect(read.version == state.version)
            #expect(read.waitingCount == state.waitingCount)
        }
        #expect(sawWaiting)
        var text = CollaborativeText()
        let insertion = try text.insert("héllo 🙂", at: 0, by: "w")
        let anchored = try text.insert("X", at: 3, by: "v")
        let deletion = try #require(try text.delete(1..<5, by: "w"))
        for operation in [insertion, anchored, deletion] { #expect(try TextOperation(record: operation.record()) == operation) }
    }

    /// A peer's state may say that a writer made up to 2^40 operations, with few characters behind
    /// them: a deletion naming all those counters costs what the text holds, not 2^40 steps (which
    /// held a server's merge, and every device pulling it, for hours).
    @Test func aDeletionOfAHugeRangeCostsWhatTheTextHolds() throws {
        var text = CollaborativeText()
        _ = try text.insert("hello", at: 0, by: "w")
        _ = try text.insert("!", at: 5, by: "v")
        let writer = try #require(text.replicaIndex["w"])
        text.applied[Int(writer)] = CollaborativeText.maximumCounter  // as a peer's state may claim
        let everything = TextElementRange(start: TextElementID(replica: "w", counter: 0), count: CollaborativeText.maximumCounter)
        try text.apply(.delete(TextDeletion(id: TextElementID(replica: "v", counter: 1), ranges: [everything])))
        #expect(text.text == "!")
    }

    /// Text typed in one go is one run: its metadata is a handful of bytes, whatever its length.
    ///
    /// Each local insert reads the whole text's order, so typing 2,000 words costs 2,000 walks of up
    /// to 12,000 characters: minutes under ThreadSanitizer, which gains nothing from them, so a
    /// sanitized run types an eighth of it.
    @Test func oneWritersTypingIsOneRun() async throws {
        try await ComputeLane.shared.run { try Self.typeInOneRun(words: TestBudget.rounds(1_000)) }
    }

    private static func typeInOneRun(words: Int) throws {
        var text = CollaborativeText()
        let body = String(repeating: "lorem ipsum ", count: words)
        for (index, word) in body.split(separator: " ", omittingEmptySubsequences: false).dropLast().enumerated() {
            _ = try text.insert(index == 0 ? String(word) : " " + word, at: text.count, by: "phone")
        }
        let overhead = text.record().count - text.text.utf8.count
        #expect(overhead < 40, "\(overhead) bytes of metadata")
    }

    /// Well-formed values that describe no tree: two characters each hanging on the other (which would
    /// leave them out of the text and send a walk up the tree round for ever).
    @Test func aCycleOfParentsIsRefused() throws {
        let values: [DatabaseValue] = [
            .integer(1), .integer(1), .text("a"), .integer(2), .integer(0), .integer(2),
            .integer(0), .text("x"), .integer(1), .integer(1), .null,
            .integer(1), .text("y"), .integer(0), .integer(1), .null,
            .integer(0),
        ]
        #expect(throws: BoutiqueError.self) { try CollaborativeText(record: RecordEncoder.encode(values)) }
        // The same runs hung on the start of the text read back.
        var fixed = values
        fixed[8] = .null
        #expect(try CollaborativeText(record: RecordEncoder.encode(fixed)).text == "xy")
    }

    /// Byte-level damage: flips, cuts, insertions and repeats of a valid record.
    static func damage(_ bytes: [UInt8], _ random: inout SeededRandom) -> [UInt8] {
        var damaged = bytes
        for _ in 0..<random.int(in: 1...3) {
            guard !damaged.isEmpty else { break }
            let at = random.below(damaged.count)
            switch random.below(4) {
            case 0: damaged[at] ^= UInt8(1 << random.below(8))
            case 1: damaged.removeSubrange(at..<min(damaged.count, at + random.int(in: 1...8)))
            case 2: damaged.insert(UInt8(truncatingIfNeeded: random.next()), at: at)
            default: damaged.insert(contentsOf: damaged[at..<min(damaged.count, at + random.int(in: 1...8))], at: at)
            }
        }
        return damaged
    }

    /// Value-level damage: a well-formed record whose values lie (references, counts, lengths, sides).
    static func lie(_ bytes: [UInt8], _ random: inout SeededRandom) throws -> [UInt8] {
        var values = try RecordDecoder.decode(bytes)
        for _ in 0..<random.int(in: 1...2) {
            let at = random.below(values.count)
            switch random.below(6) {
            case 0: values[at] = .integer(Int64(random.int(in: -2...40)))
            case 1: values[at] = .integer(Int64(bitPattern: random.next()))
            case 2: values[at] = .null
            case 3: values[at] = .text(random.pick(["", "w", "v", "replica-1", "\u{0}"]))
            case 4: values.remove(at: at)
            default: values.insert(values[random.below(values.count)], at: at)
            }
        }
        return RecordEncoder.encode(values)
    }

    /// Whatever reads back must be a working state: it shows text, takes edits and writes itself again.
    static func expectUsable(_ state: CollaborativeText) throws {
        var state = state
        _ = state.text
        _ = try CollaborativeText(record: state.record())
        _ = try state.insert("z", at: state.count, by: "fuzz")
        if state.count > 1 { try state.delete(0..<1, by: "fuzz") }
        _ = try state.replaceText(with: "fuzzed", by: "fuzz")
        #expect(state.text == "fuzzed")
    }

    @Test func damagedStatesAreRefusedOrUsable() throws {
        var random = SeededRandom(seed: 2_026)
        var refused = 0
        let rounds = TestBudget.rounds(3_000)
        for round in 0..<rounds {
            let valid = try Self.randomState(&random).record()
            let bytes = round % 2 == 0 ? Self.damage(valid, &random) : try Self.lie(valid, &random)
            do {
                try Self.expectUsable(try CollaborativeText(record: bytes))
            } catch is BoutiqueError {
                refused += 1
            }
        }
        #expect(refused > rounds / 3, "\(refused) of \(rounds) damaged records refused")
    }

    @Test func damagedOperationsAreRefusedOrValid() throws {
        var random = SeededRandom(seed: 4_051)
        var text = CollaborativeText()
        var operations = [try text.insert("hello world", at: 0, by: "w"), try text.insert("X", at: 3, by: "v")]
        operations.append(try #require(try text.delete(2..<7, by: "w")))
        var refused = 0
        let rounds = TestBudget.rounds(3_000)
        for round in 0..<rounds {
            let valid = random.pick(operations).record()
            let bytes = round % 2 == 0 ? Self.damage(valid, &random) : try Self.lie(valid, &random)
            do {
                let operation = try TextOperation(record: bytes)
                var copy = text
                try? copy.apply(operation)
                _ = copy.text
                _ = try CollaborativeText(record: copy.record())
            } catch is BoutiqueError {
                refused += 1
            }
        }
        #expect(refused > rounds / 3, "\(refused) of \(rounds) damaged records refused")
    }
}
