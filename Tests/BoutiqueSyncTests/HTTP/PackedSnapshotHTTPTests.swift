// The HTTP front end is part of the package where GNU libmicrohttpd is installed; so are its tests.
#if BOUTIQUE_SYNC_HTTP
import BoutiqueSync
import BoutiqueSyncServer
import Foundation
import Testing

/// Snapshot pages over HTTP: a device asks for packed rows and reads them, a request that does not ask
/// (a device that predates packed rows) still gets JSON rows, a reply with JSON rows (a server that
/// predates them) still reads, and packed rows that do not unpack are refused, with nothing merged.
@Suite struct PackedSnapshotHTTPTests {
    static func insertNotes(_ count: Int, into database: DatabaseActor) async throws {
        try await database.write { conn in
            for index in 0..<count {
                try conn.execute(
                    "INSERT INTO note(id, title, body, rank) VALUES (?, ?, ?, ?)",
                    [.text("n\(index)"), .text("title \(index)"), index % 2 == 0 ? .null : .text("body \(index)"), .integer(Int64(index))])
            }
        }
    }

    @Test func aDeviceReadsPackedPagesAndARequestWithoutTheAskGetsJSONRows() async throws {
        let server = try await HTTPTestServer()
        let a = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let syncA = try await BoutiqueSync(database: a, tables: ["note"], server: try server.transport())
        try await Self.insertNotes(30, into: a)
        #expect(try await syncA.synchronize().pushed == 30)
        // An update by another replica later: the page holds a row whose cells do not share a stamp.
        let c = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let syncC = try await BoutiqueSync(database: c, tables: ["note"], server: try server.transport(user: "cy"))
        _ = try await syncC.synchronize()
        try await c.write { conn in try conn.execute("UPDATE note SET title = 'renamed' WHERE id = 'n7'") }
        _ = try await syncC.synchronize()

        let token = try server.token()
        let asked = try await RawHTTP.send(
            server.http.url, "v1/snapshot", token: token,
            body: RawHTTP.json(SnapshotRequest(replica: "r", after: nil, limit: 1_000, packsRows: true)))
        var packed = try SyncJSON.decoder().decode(SnapshotResponse.self, from: asked.body)
        #expect(asked.status == 200 && packed.rows.isEmpty && packed.packedRows != nil)
        let older = try await RawHTTP.send(
            server.http.url, "v1/snapshot", token: token, body: RawHTTP.json(SnapshotRequest(replica: "r", after: nil, limit: 1_000)))
        let json = try SyncJSON.decoder().decode(SnapshotResponse.self, from: older.body)
        #expect(older.status == 200 && json.rows.count == 30 && json.packedRows == nil, "a device that predates packed rows gets JSON rows")
        try packed.unpackRows()
        #expect(packed.rows == json.rows)
        #expect(asked.body.count * 3 < older.body.count, "packed \(asked.body.count) bytes, JSON \(older.body.count)")

        let b = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let syncB = try await BoutiqueSync(database: b, tables: ["note"], server: try server.transport(user: "bo"))
        _ = try await syncB.synchronize()
        _ = try await syncA.synchronize()
        let rows = try await b.rows("note")
        #expect(rows.count == 30 && rows.contains { $0[0] == "n7" && $0[1] == "renamed" })
        #expect(rows == (try await a.rows("note")))
        await syncA.stop()
        await syncB.stop()
        await syncC.stop()
        for database in [a, b, c] { await database.close() }
        await server.stop()
    }

    static func reply(_ response: SnapshotResponse) throws -> [UInt8] { Array(try SyncJSON.encoder().encode(response)) }

    static let stamp = SyncStamp(time: HybridTimestamp(milliseconds: 1_700_000_000_000, counter: 0), replica: "writer")

    static let row = SnapshotRow(
        table: "note", key: .text("n1"),
        state: RowRegister(
            existence: ExistenceRegister(exists: true, stamp: stamp),
            cells: ["id": CellRegister(value: .text("n1"), stamp: stamp), "title": CellRegister(value: .text("From JSON"), stamp: stamp)]))

    @Test func aReplyWithJSONRowsReadsAsBefore() async throws {
        // A server that predates packed rows ignores the ask and sends JSON rows.
        let canned = try CannedHTTPServer(answers: [
            "/v1/snapshot": try Self.reply(
                SnapshotResponse(rows: [Self.row], next: nil, cursor: 3, serverTime: HybridTimestamp(milliseconds: 1, counter: 0)))
        ])
        defer { canned.stop() }
        let page = try await HTTPSyncTransport(url: canned.url, token: "t").snapshot(SnapshotRequest(replica: "r", after: nil, limit: 10))
        #expect(page.rows == [Self.row] && page.packedRows == nil)
    }

    @Test func packedRowsThatDoNotUnpackAreRefusedWithAReason() async throws {
        var response = SnapshotResponse(rows: [], next: nil, cursor: 3, serverTime: HybridTimestamp(milliseconds: 1, counter: 0))
        // A row whose existence is neither 0 nor 1.
        response.packedRows = PackedSnapshotRows(
            bytes: PackedSnapshotRowsTests.frames([PackedSnapshotRowsTests.dictionary, [0, "n1", .null, 2, 5, 0, .null, .null, "n1", "T"]]))
        let canned = try CannedHTTPServer(answers: ["/v1/snapshot": try Self.reply(response)])
        defer { canned.stop() }
        do {
            let page = try await HTTPSyncTransport(url: canned.url, token: "t").snapshot(SnapshotRequest(replica: "r", after: nil, limit: 10))
            Issue.record("read \(page.rows.count) rows from a bad page")
        } catch {
            guard case .syncRefused(let reason)? = error as? BoutiqueError else {
                Issue.record("not a refusal: \(error)")
                return
            }
            #expect(reason.contains("packed snapshot page is malformed"), "\(reason)")
        }
        #expect(canned.requests.withLock { $0 } == ["/v1/snapshot"], "a refusal is not retried")
    }
}
#endif
