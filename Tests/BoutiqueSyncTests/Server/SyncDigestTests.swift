import BoutiqueSyncCore
import Testing

/// The digest devices and servers compare: its value is part of the protocol, so it is pinned here.
@Suite struct SyncDigestTests {
    @Test func theDigestIsFNV1aOverTheDocumentedLayout() {
        let stamp = SyncStamp(time: HybridTimestamp(milliseconds: 1000, counter: 2), replica: "device")
        let transaction = SyncTransaction(id: 57, stamp: stamp, changes: [
            SyncChange(table: "note", key: "k1", kind: .insert, columns: [
                SyncColumnValue(name: "title", value: .text("héllo")), SyncColumnValue(name: "rank", value: .integer(-3)),
                SyncColumnValue(name: "body", value: .null), SyncColumnValue(name: "data", value: .blob([0, 255])),
                SyncColumnValue(name: "score", value: .real(1.5)),
            ], stamp: stamp),
            SyncChange(table: "note", key: .blob([1, 2, 3]), kind: .delete, columns: [], stamp: stamp),
        ])
        // Worked out apart from this code: FNV-1a over each value's tag, little-endian length or bits,
        // and UTF-8 bytes, for the id, the stamp's time and each change's table, key, kind and columns;
        // then on over the stamp's writer, as text.
        #expect(SyncDigest.of(id: 57, time: stamp.time, changes: transaction.changes) == 0xe8f5_89d9_8e35_f352)
        #expect(transaction.digest == 0x07a8_54e6_8c22_da93)
    }
}
