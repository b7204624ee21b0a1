import BoutiqueSyncCore
import BoutiqueTestSupport
import Testing

/// The merge rule is a join: it commutes, repeats harmlessly and groups any way, on random states.
@Suite struct MergeRuleAlgebraTests {
    /// A random state over a few columns, writers and times, so that ties happen.
    static func randomRow(_ random: inout SeededRandom) -> RowRegister {
        func stamp() -> SyncStamp {
            SyncStamp(time: HybridTimestamp(milliseconds: UInt64(random.int(in: 1...4)), counter: UInt16(random.below(2))),
                      replica: random.pick(["a", "b", "c"]))
        }
        var row = RowRegister()
        if random.chance(70) { row.existence = ExistenceRegister(exists: random.chance(50), stamp: stamp()) }
        if random.chance(40) { row.lastDelete = stamp() }
        for column in ["title", "body", "rank"] where random.chance(60) {
            row.cells[column] = CellRegister(value: random.pick([.null, .integer(1), .integer(2), .text("x")]), stamp: stamp())
        }
        return row
    }

    @Test func mergeCommutesRepeatsAndGroups() {
        var random = SeededRandom(seed: 11)
        for _ in 0..<3_000 {
            let a = Self.randomRow(&random)
            let b = Self.randomRow(&random)
            let c = Self.randomRow(&random)
            #expect(MergeRule.merge(a, b) == MergeRule.merge(b, a))
            #expect(MergeRule.merge(a, a) == a)
            #expect(MergeRule.merge(MergeRule.merge(a, b), b) == MergeRule.merge(a, b))
            #expect(MergeRule.merge(MergeRule.merge(a, b), c) == MergeRule.merge(a, MergeRule.merge(b, c)))
            var joined = a
            MergeRule.join(b, into: &joined)
            #expect(joined == MergeRule.merge(a, b), "the join without bookkeeping is the same merge")
        }
    }

    @Test func changesInAnyOrderGiveTheSameRow() {
        var random = SeededRandom(seed: 12)
        for _ in 0..<500 {
            var changes: [SyncChange] = []
            for index in 0..<6 {
                let kind = random.pick([SyncChange.Kind.insert, .update, .delete])
                let stamp = SyncStamp(time: HybridTimestamp(milliseconds: UInt64(random.int(in: 1...5))), replica: "r\(index)")
                let columns = kind == .delete ? [] : [SyncColumnValue(name: "title", value: .text("v\(index)"))]
                changes.append(SyncChange(table: "note", key: "k", kind: kind, columns: columns, stamp: stamp))
            }
            var forward = RowRegister()
            for change in changes { MergeRule.apply(change, to: &forward) }
            var backward = RowRegister()
            for change in changes.reversed() { MergeRule.apply(change, to: &backward) }
            var twice = RowRegister()
            for change in changes + changes.shuffled(using: &random) { MergeRule.apply(change, to: &twice) }
            #expect(forward == backward)
            #expect(forward == twice)
        }
    }

    static func change(_ kind: SyncChange.Kind, at time: UInt64, by replica: String = "a", title: String? = nil) -> SyncChange {
        SyncChange(
            table: "note", key: "k", kind: kind, columns: title.map { [SyncColumnValue(name: "title", value: .text($0))] } ?? [],
            stamp: SyncStamp(time: HybridTimestamp(milliseconds: time), replica: replica))
    }

    @Test func aDeleteWinsOverOlderUpdatesAndAnUpdateNeverRevives() {
        var row = RowRegister()
        MergeRule.apply(Self.change(.insert, at: 1, title: "first"), to: &row)
        MergeRule.apply(Self.change(.delete, at: 3), to: &row)
        MergeRule.apply(Self.change(.update, at: 2, title: "older"), to: &row)
        #expect(!row.isVisible)
        MergeRule.apply(Self.change(.update, at: 4, title: "later"), to: &row)
        #expect(!row.isVisible, "an update never brings a deleted row back")
        MergeRule.apply(Self.change(.insert, at: 5, title: "again"), to: &row)
        #expect(row.isVisible, "a later insert revives it")
        #expect(row.visibleValues["title"] == .text("again"))
    }

    @Test func valuesOfTheDeletedRowAreNotShownByARevivedOne() {
        var row = RowRegister()
        MergeRule.apply(SyncChange(table: "note", key: "k", kind: .insert,
                                   columns: [SyncColumnValue(name: "title", value: "t"), SyncColumnValue(name: "color", value: "red")],
                                   stamp: SyncStamp(time: HybridTimestamp(milliseconds: 1), replica: "a")), to: &row)
        MergeRule.apply(Self.change(.delete, at: 2), to: &row)
        MergeRule.apply(Self.change(.insert, at: 3, title: "new"), to: &row)
        #expect(row.visibleValues == ["title": .text("new")])
    }

    @Test func atTheSameTimeTheReplicaIdDecidesAndADeleteBeatsAnInsert() {
        var row = RowRegister()
        MergeRule.apply(Self.change(.update, at: 7, by: "b", title: "from b"), to: &row)
        MergeRule.apply(Self.change(.update, at: 7, by: "a", title: "from a"), to: &row)
        #expect(row.cells["title"]?.value == .text("from b"), "'b' sorts after 'a'")
        var existence = RowRegister()
        MergeRule.apply(Self.change(.insert, at: 7, by: "a"), to: &existence)
        MergeRule.apply(Self.change(.delete, at: 7, by: "a"), to: &existence)
        #expect(!existence.isVisible)
    }

    @Test func stateRecordsRoundTripAndBadBytesAreAnError() throws {
        var random = SeededRandom(seed: 13)
        for _ in 0..<200 {
            let row = Self.randomRow(&random)
            #expect(try RowRegister(record: row.record()) == row)
        }
        #expect(throws: BoutiqueError.self) { try RowRegister(record: [0x05, 0x01, 0x02]) }
        #expect(throws: BoutiqueError.self) { try RowRegister(record: RecordEncoder.encode([.text("x")])) }
    }

    /// A row written whole by one insert stores that insert's stamp once, not once per column; a column
    /// stamped otherwise keeps its own, and a column without a stamp in a row without one is refused.
    @Test func aStampSharedWithTheRowsExistenceIsStoredOnce() throws {
        let replica = "5D3C9B0E-8F1A-4C2B-9E7D-6A5B4C3D2E1F"
        var row = MergeRule.register(for: SyncChange(
            table: "note", key: "k", kind: .insert,
            columns: ["title", "body", "rank", "color"].map { SyncColumnValue(name: $0, value: .text("v")) },
            stamp: SyncStamp(time: HybridTimestamp(milliseconds: 5), replica: replica)))
        let whole = row.record()
        let values = try RecordDecoder.decode(whole)
        #expect(values.filter { $0 == .text(replica) }.count == 1, "the replica id once, for the existence: \(values)")
        #expect(try RowRegister(record: whole) == row)
        var buffer = RowRecordBuffer()
        let range = buffer.append(stateOf: SyncChange(
            table: "note", key: "k", kind: .insert,
            columns: ["title", "body", "rank", "color"].map { SyncColumnValue(name: $0, value: .text("v")) },
            stamp: SyncStamp(time: HybridTimestamp(milliseconds: 5), replica: replica)))
        #expect(range.count == whole.count, "a change's state is as short as the register's")
        #expect(try RowRegister(record: Array(buffer.bytes[range])) == row)

        MergeRule.apply(Self.change(.update, at: 9, by: "b", title: "later"), to: &row)
        let updated = row.record()
        #expect(updated.count > whole.count, "the updated column carries its own stamp")
        #expect(try RowRegister(record: updated) == row)
        #expect(try RowRegister(record: updated).cells["title"]?.stamp.replica == "b")

        let unstamped = RecordEncoder.encode([.null, .null, .null, .null, .null, .text("title"), .text("x"), .null, .null])
        #expect(throws: BoutiqueError.self) { try RowRegister(record: unstamped) }
    }

    @Test func statesWrittenBackToBackReadBackAsTheirRegisters() throws {
        var random = SeededRandom(seed: 14)
        var buffer = RowRecordBuffer()
        var written: [(range: Range<Int>, state: RowRegister)] = []
        for _ in 0..<300 {
            let columns = ["id", "title", "body", "rank"].filter { _ in random.chance(70) }.map {
                SyncColumnValue(name: $0, value: random.pick([.null, .integer(7), .real(1.5), .text("x"), .blob([1, 2])]))
            }
            let change = SyncChange(
                table: "note", key: "k", kind: random.pick([.insert, .update, .delete]), columns: columns,
                stamp: SyncStamp(time: HybridTimestamp(milliseconds: UInt64(random.int(in: 1...9))), replica: random.pick(["a", "b"])))
            // A change's state straight from the change, and now and then a whole state, in one buffer.
            written.append((buffer.append(stateOf: change), MergeRule.register(for: change)))
            if random.chance(20) {
                let row = Self.randomRow(&random)
                written.append((buffer.append(row), row))
            }
        }
        for (range, state) in written {
            #expect(try RowRegister(record: Array(buffer.bytes[range])) == state)
        }
        buffer.removeAll()
        #expect(buffer.bytes.isEmpty)
    }
}
