import BoutiqueSyncCore
import Foundation
import Testing

/// The clock never goes back and moves past what it sees.
@Suite struct HybridLogicalClockTests {
    @Test func readingsPackMillisecondsAndCounter() {
        let stamp = HybridTimestamp(milliseconds: 1_700_000_000_123, counter: 9)
        #expect(stamp.milliseconds == 1_700_000_000_123)
        #expect(stamp.counter == 9)
        #expect(stamp < HybridTimestamp(milliseconds: 1_700_000_000_124))
        #expect(HybridTimestamp(milliseconds: .max).milliseconds == HybridTimestamp.maximumMilliseconds)
    }

    @Test func ticksOnlyGrowWhenTheWallClockGoesBack() {
        var clock = HybridLogicalClock()
        let first = clock.tick(now: 10_000)
        let second = clock.tick(now: 10_000)
        let third = clock.tick(now: 5_000)
        #expect(first == HybridTimestamp(milliseconds: 10_000))
        #expect(second == HybridTimestamp(milliseconds: 10_000, counter: 1))
        #expect(third == HybridTimestamp(milliseconds: 10_000, counter: 2))
        #expect(clock.tick(now: 20_000) == HybridTimestamp(milliseconds: 20_000))
    }

    @Test func aRemoteStampMovesTheClockForward() {
        var clock = HybridLogicalClock()
        _ = clock.tick(now: 1_000)
        clock.observe(HybridTimestamp(milliseconds: 9_000, counter: 4))
        #expect(clock.tick(now: 2_000) == HybridTimestamp(milliseconds: 9_000, counter: 5))
        clock.observe(HybridTimestamp(milliseconds: 1))
        #expect(clock.last == HybridTimestamp(milliseconds: 9_000, counter: 5), "an older stamp changes nothing")
    }

    @Test func aFullCounterCarriesIntoTheMilliseconds() {
        var clock = HybridLogicalClock(last: HybridTimestamp(milliseconds: 5, counter: .max))
        let next = clock.tick(now: 0)
        #expect(next == HybridTimestamp(milliseconds: 6, counter: 0))
    }

    @Test func messagesSurviveJSON() throws {
        let stamp = SyncStamp(time: HybridTimestamp(milliseconds: 42, counter: 1), replica: "r")
        let change = SyncChange(
            table: "note", key: .blob([0, 1, 255]), kind: .update,
            columns: [SyncColumnValue(name: "score", value: .real(-0.1)), SyncColumnValue(name: "n", value: .null),
                      SyncColumnValue(name: "big", value: .integer(.min)), SyncColumnValue(name: "text", value: "é\u{0}x")],
            stamp: stamp)
        let request = PushRequest(
            replica: "r", baseTransactionID: 3, baseDigest: 99, schemaVersion: 2,
            transactions: [SyncTransaction(id: 4, stamp: stamp, changes: [change])])
        let decoded = try JSONDecoder().decode(PushRequest.self, from: JSONEncoder().encode(request))
        #expect(decoded == request)
        let row = SnapshotRow(table: "note", key: "k", state: RowRegister(existence: ExistenceRegister(exists: true, stamp: stamp)))
        #expect(try JSONDecoder().decode(SnapshotRow.self, from: JSONEncoder().encode(row)) == row)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(SyncColumnValue.self, from: Data(#"{"name":"x","value":{"t":"q"}}"#.utf8))
        }
    }
}
