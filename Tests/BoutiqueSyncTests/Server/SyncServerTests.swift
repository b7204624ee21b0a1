import BoutiqueSync
import BoutiqueSyncCore
import BoutiqueSyncServer
import Foundation
import Testing

/// The server's logic on its own: idempotent pushes, digests, clocks, tenants, resolver, tombstones.
@Suite struct SyncServerTests {
    static let wall: UInt64 = 1_900_000_000_000

    static func server(resolver: SyncResolver? = nil) async throws -> SyncServer {
        SyncServer(
            store: try await SQLiteSyncStore.open(url: BoutiqueDB.inMemoryURL()), resolver: resolver,
            maximumClockSkewMilliseconds: 60_000, wallClock: { wall })
    }

    static func transaction(_ id: Int64, at time: UInt64 = wall, table: String = "note", key: String = "k",
                            kind: SyncChange.Kind = .insert, title: String = "t") -> SyncTransaction {
        let stamp = SyncStamp(time: HybridTimestamp(milliseconds: time), replica: "writer")
        let columns = kind == .delete ? [] : [SyncColumnValue(name: "title", value: .text(title))]
        return SyncTransaction(id: id, stamp: stamp, changes: [SyncChange(table: table, key: .text(key), kind: kind, columns: columns, stamp: stamp)])
    }

    static func log(_ server: SyncServer, tenant: String = "t") async throws -> [ServerChange] {
        try await server.pull(PullRequest(replica: "reader", cursor: 0, limit: 1_000), tenant: tenant).changes
    }

    @Test func aRetriedPushChangesNothing() async throws {
        let server = try await Self.server()
        let request = PushRequest(replica: "r", baseTransactionID: 0, baseDigest: nil, schemaVersion: 1,
                                  transactions: [Self.transaction(5), Self.transaction(9, key: "j")])
        let first = try await server.push(request, tenant: "t")
        let again = try await server.push(request, tenant: "t")
        #expect(first.outcome == .accepted && first.appliedThrough == 9)
        #expect(again.outcome == .accepted && again.appliedThrough == 9 && again.digest == first.digest)
        #expect(try await Self.log(server).count == 2, "the retry applied nothing")
    }

    @Test func anotherHistoryUnderTheSameIdIsAMismatch() async throws {
        let server = try await Self.server()
        _ = try await server.push(PushRequest(replica: "r", baseTransactionID: 0, baseDigest: nil, schemaVersion: 1,
                                              transactions: [Self.transaction(5)]), tenant: "t")
        // A file restored from before transaction 5 wrote something else as 5.
        let restored = PushRequest(replica: "r", baseTransactionID: 0, baseDigest: nil, schemaVersion: 1,
                                   transactions: [Self.transaction(5, title: "other")])
        let answer = try await server.push(restored, tenant: "t")
        #expect(answer.outcome == .mismatch)
        #expect(answer.appliedThrough == 5)
        #expect(try await Self.log(server).count == 1, "nothing of the mismatched push was applied")
    }

    @Test func stampsTooFarAheadAreRefusedAndEveryReplyCarriesTheServersTime() async throws {
        let server = try await Self.server()
        let ahead = PushRequest(replica: "r", baseTransactionID: 0, baseDigest: nil, schemaVersion: 1,
                                transactions: [Self.transaction(1, at: Self.wall + 120_000)])
        let refused = try await server.push(ahead, tenant: "t")
        #expect(refused.outcome == .refused)
        #expect(refused.reason?.contains("clock") == true)
        #expect(refused.serverTime.milliseconds == Self.wall)
        #expect(try await Self.log(server).isEmpty)
        let pull = try await server.pull(PullRequest(replica: "r", cursor: 0, limit: 10), tenant: "t")
        let snapshot = try await server.snapshot(SnapshotRequest(replica: "r", after: nil, limit: 10), tenant: "t")
        #expect(pull.serverTime.milliseconds == Self.wall && snapshot.serverTime.milliseconds == Self.wall)
    }

    @Test func malformedPushesAreRefusedWholeAndNamesAreData() async throws {
        let server = try await Self.server()
        var tampered = Self.transaction(1)
        tampered.changes[0].columns[0].value = "changed after the digest"
        var twice = Self.transaction(2)
        twice.changes.append(twice.changes[0])
        let stamp = SyncStamp(time: HybridTimestamp(milliseconds: Self.wall), replica: "w")
        let integerKey = SyncTransaction(id: 3, stamp: stamp, changes: [
            SyncChange(table: "note", key: .integer(4), kind: .insert, columns: [], stamp: stamp)])
        for bad in [tampered, twice, integerKey] {
            let answer = try await server.push(
                PushRequest(replica: "r", baseTransactionID: 0, baseDigest: nil, schemaVersion: 1, transactions: [bad]), tenant: "t")
            #expect(answer.outcome == .refused)
        }
        #expect(try await Self.log(server).isEmpty)

        let hostile = "note\"; DROP TABLE boutique_sync_server_log; --"
        let accepted = try await server.push(
            PushRequest(replica: "r", baseTransactionID: 0, baseDigest: nil, schemaVersion: 1,
                        transactions: [Self.transaction(1, table: hostile, key: "'); DELETE FROM x; --")]), tenant: "t")
        #expect(accepted.outcome == .accepted)
        let log = try await Self.log(server)
        #expect(log.map(\.change.table) == [hostile.lowercased()], "lowercased, as every pushed table name is")
        #expect(log.first?.change.key == .text("'); DELETE FROM x; --"))
    }

    /// The table shape of the note whose body is collaborative text, as a device describes it.
    static let textShape = SyncTableShape(table: "note", columns: ["id", "title", "body", "data"], collaborativeText: ["body"])

    /// A device pushes the text operations it made, as their writer. A whole collaborative text state
    /// is refused unread (its few bytes may claim millions of characters), and so are operations that
    /// do not read back and operations of another writer than the transaction's: the whole push,
    /// nothing of it applied.
    @Test func aPushedTextStateDamagedOrAnotherWritersOperationsAreRefusedWhole() async throws {
        let server = try await Self.server()
        var note = CollaborativeText()
        let typed = try note.insert("hello", at: 0, by: "writer")
        let operations = CollaborativeTextValue.operations([typed]).value
        guard case .blob(let bytes) = operations else { Issue.record("operations are a blob"); return }
        var other = CollaborativeText()
        let claimed = CollaborativeTextValue.operations([typed, try other.insert("x", at: 0, by: "someone else")]).value
        let cases: [(DatabaseValue, String)] = [
            (CollaborativeTextValue.state(note).value, "whole collaborative text state"),
            (.blob(Array(bytes.dropLast(2))), "damaged collaborative text value"),
            (claimed, "text operation of writer 'someone else'"),
        ]
        for (index, (value, reason)) in cases.enumerated() {
            let stamp = SyncStamp(time: HybridTimestamp(milliseconds: Self.wall), replica: "writer")
            let title = SyncChange(table: "note", key: .text("other"), kind: .insert, columns: [SyncColumnValue(name: "title", value: .text("kept?"))], stamp: stamp)
            let transaction = SyncTransaction(id: 1, stamp: stamp, changes: [
                title, SyncChange(table: "note", key: .text("k"), kind: .insert, columns: [SyncColumnValue(name: "body", value: value)], stamp: stamp)])
            let answer = try await server.push(
                PushRequest(replica: "r\(index)", baseTransactionID: 0, baseDigest: nil, schemaVersion: 1, transactions: [transaction],
                            tables: [Self.textShape]), tenant: "t")
            #expect(answer.outcome == .refused, "value \(index)")
            #expect(answer.refusal == .invalid)
            #expect(answer.reason?.contains(reason) == true, "\(String(describing: answer.reason))")
        }
        #expect(try await Self.log(server).isEmpty, "nothing of a refused push applied")
        // The writer's own operations go.
        let stamp = SyncStamp(time: HybridTimestamp(milliseconds: Self.wall), replica: "writer")
        let own = SyncTransaction(id: 1, stamp: stamp, changes: [
            SyncChange(table: "note", key: .text("k"), kind: .insert, columns: [SyncColumnValue(name: "body", value: operations)], stamp: stamp)])
        let answer = try await server.push(
            PushRequest(replica: "r", baseTransactionID: 0, baseDigest: nil, schemaVersion: 1, transactions: [own], tables: [Self.textShape]),
            tenant: "t")
        #expect(answer.outcome == .accepted)
        #expect(try await Self.log(server).count == 1)
    }

    /// Text operations that build on what the server's text does not have (here: the writer's
    /// operations before them, never pushed) would wait in it for ever, and every later edit of their
    /// writer behind them. Their transactions alone are refused, with the reason; the rest is applied.
    @Test func textOperationsTheServersTextCannotApplyAreRefusedWithTheirTransactionsAlone() async throws {
        let server = try await Self.server()
        var note = CollaborativeText()
        let typed = try note.insert("abc", at: 0, by: "writer")
        let lost = try note.insert("de", at: 3, by: "writer")
        let after = try note.insert("f", at: 5, by: "writer")
        let later = try note.insert("g", at: 6, by: "writer")
        func transaction(_ id: Int64, key: String, kind: SyncChange.Kind = .update, _ column: SyncColumnValue) -> SyncTransaction {
            let stamp = SyncStamp(time: HybridTimestamp(milliseconds: Self.wall - 10 + UInt64(id)), replica: "writer")
            return SyncTransaction(id: id, stamp: stamp, changes: [SyncChange(table: "note", key: .text(key), kind: kind, columns: [column], stamp: stamp)])
        }
        func body(_ operations: [TextOperation]) -> SyncColumnValue {
            SyncColumnValue(name: "body", value: CollaborativeTextValue.operations(operations).value)
        }
        func text() async throws -> DatabaseValue? {
            let state = try await server.store.read(tenant: "t") { store in try store.rowState(table: "note", key: .text("k")) }
            return state?.visibleValues(textColumns: ["body"])["body"]
        }
        let answer = try await server.push(
            PushRequest(replica: "r", baseTransactionID: 0, baseDigest: nil, schemaVersion: 1, transactions: [
                transaction(1, key: "k", kind: .insert, body([typed])),
                transaction(2, key: "k", body([after])),
                transaction(3, key: "k", body([later])),
                transaction(4, key: "other", kind: .insert, SyncColumnValue(name: "title", value: .text("kept"))),
            ], tables: [Self.textShape]), tenant: "t")
        #expect(answer.outcome == .accepted, "\(String(describing: answer.reason))")
        // The later edit waits behind the refused one: refused too.
        #expect(answer.refusals?.map(\.transactionID) == [2, 3])
        for refusal in answer.refusals ?? [] {
            #expect(refusal.reason == .invalid && refusal.message.contains("from text the server does not have"), "\(refusal.message)")
        }
        #expect(try await text() == .text("abc"))
        #expect(try await Self.log(server).count == 2, "the other transactions applied")
        // The operations it lacked arrive: the writer's later edits apply again.
        let next = try await server.push(
            PushRequest(replica: "r", baseTransactionID: 4, baseDigest: answer.digest, schemaVersion: 1, transactions: [
                transaction(5, key: "k", body([lost])),
            ]), tenant: "t")
        #expect(next.outcome == .accepted && next.refusals == nil, "\(String(describing: next.reason))")
        #expect(try await text() == .text("abcde"))
    }

    /// Only the columns named collaborative are text: any other column's value is opaque bytes, even
    /// one that begins as a collaborative text value does, read or not.
    @Test func aPlainColumnsValueIsOpaqueWhateverItsBytesStartWith() async throws {
        let server = try await Self.server()
        var note = CollaborativeText()
        let decodes = CollaborativeTextValue.operations([try note.insert("hello", at: 0, by: "writer")]).value
        let damaged = DatabaseValue.blob([0x00, 0x42, 0x54, 0x58, 2, 0xFF, 0xFF])
        var later = CollaborativeText()
        let decodesToo = CollaborativeTextValue.operations([try later.insert("other", at: 0, by: "writer")]).value
        for (index, (first, second)) in [(damaged, decodes), (decodes, decodesToo)].enumerated() {
            let key = DatabaseValue.text("k\(index)")
            var transactions: [SyncTransaction] = []
            for (offset, value) in [first, second].enumerated() {
                let stamp = SyncStamp(time: HybridTimestamp(milliseconds: Self.wall - 10 + UInt64(offset)), replica: "writer")
                transactions.append(SyncTransaction(id: Int64(offset + 1), stamp: stamp, changes: [
                    SyncChange(table: "note", key: key, kind: offset == 0 ? .insert : .update,
                               columns: [SyncColumnValue(name: "data", value: value)], stamp: stamp)]))
            }
            let answer = try await server.push(
                PushRequest(replica: "r\(index)", baseTransactionID: 0, baseDigest: nil, schemaVersion: 1, transactions: transactions,
                            tables: [Self.textShape]), tenant: "t")
            #expect(answer.outcome == .accepted, "\(String(describing: answer.reason))")
            // The later write wins whole, its bytes unchanged: no text merge of the two.
            let state = try await server.store.read(tenant: "t") { store in try store.rowState(table: "note", key: key) }
            #expect(state?.cells["data"]?.value == second, "pair \(index)")
        }
        let pulled = try await Self.log(server).filter { $0.change.columns.first?.name == "data" }.map { $0.change.columns.first?.value }
        #expect(pulled == [damaged, decodes, decodes, decodesToo], "sent on as pushed")
    }

    @Test func tenantsNeverSeeEachOthersRows() async throws {
        let server = try await Self.server()
        _ = try await server.push(PushRequest(replica: "r", baseTransactionID: 0, baseDigest: nil, schemaVersion: 1,
                                              transactions: [Self.transaction(1)]), tenant: "acme")
        #expect(try await Self.log(server, tenant: "acme").count == 1)
        #expect(try await Self.log(server, tenant: "globex").isEmpty)
        let snapshot = try await server.snapshot(SnapshotRequest(replica: "r", after: nil, limit: 10), tenant: "globex")
        #expect(snapshot.rows.isEmpty)
    }

    @Test func theResolversAnswerIsANewChangeStampedByTheServer() async throws {
        let server = try await Self.server(resolver: { conflict in
            guard case .text(let title)? = conflict.merged.visibleValues["title"], title != title.uppercased() else { return nil }
            return [SyncColumnValue(name: "title", value: .text(title.uppercased()))]
        })
        _ = try await server.push(PushRequest(replica: "r", baseTransactionID: 0, baseDigest: nil, schemaVersion: 1,
                                              transactions: [Self.transaction(1, title: "quiet")]), tenant: "t")
        let log = try await Self.log(server)
        #expect(log.count == 2)
        #expect(log.last?.change.stamp.replica == SyncServer.serverReplica)
        #expect(log.last?.change.columns.first?.value == .text("QUIET"))
    }

    @Test func tombstonesGoOnceEveryActiveReplicaPulledPastThem() async throws {
        let server = try await Self.server()
        // b is a device: its first push of a session (empty, with nothing to push) makes it known, and
        // only known replicas' pulls hold collection back.
        _ = try await server.push(PushRequest(replica: "b", baseTransactionID: 0, baseDigest: nil, schemaVersion: 1, transactions: []), tenant: "t")
        _ = try await server.push(PushRequest(replica: "a", baseTransactionID: 0, baseDigest: nil, schemaVersion: 1,
                                              transactions: [Self.transaction(1), Self.transaction(2, at: Self.wall + 1, kind: .delete)]),
                                  tenant: "t")
        _ = try await server.pull(PullRequest(replica: "a", cursor: 0, limit: 10), tenant: "t")
        _ = try await server.pull(PullRequest(replica: "b", cursor: 0, limit: 1), tenant: "t")
        #expect(try await server.collectGarbage(tenant: "t").tombstonesRemoved == 0, "b has not pulled the delete yet")
        _ = try await server.pull(PullRequest(replica: "b", cursor: 1, limit: 10), tenant: "t")
        let report = try await server.collectGarbage(tenant: "t")
        #expect(report.tombstonesRemoved == 1)
        #expect(report.horizon == 2)
        let stale = try await server.pull(PullRequest(replica: "c", cursor: 0, limit: 10), tenant: "t")
        #expect(stale.outcome == .resetRequired, "a cursor the log no longer reaches must bootstrap again")
    }
}
