import BoutiqueSQLite
import BoutiqueSync
import BoutiqueSyncServer
import Foundation
import Testing

/// A local transaction of any size syncs: one too large for a request goes in parts, which the server
/// keeps until the last and then applies whole; a lost connection resumes from the part the server
/// holds; a refused one is undone and stops nothing after it.
@Suite struct LargeTransactionTests {
    /// Forwards to a server and keeps every push it sent, with what another device could pull right
    /// after each part that was not the last.
    final class WatchingTransport: SyncTransport {
        let base: InProcessTransport
        let server: SyncServer
        let pushes = Lock<[PushRequest]>([])
        /// Changes another replica could pull after each part before the last.
        let visibleMidway = Lock<[Int]>([])
        /// Fails (after the server handled it) the push with this index, once.
        let failingPush = Lock<Int?>(nil)
        /// Leaves out that the server takes parts, as a server that predates them.
        let hidesParts: Bool

        init(_ server: SyncServer, user: String? = nil, hidesParts: Bool = false) {
            self.server = server
            self.base = .inProcess(server, user: user)
            self.hidesParts = hidesParts
        }

        var serverIdentifier: String { base.serverIdentifier }

        func push(_ request: PushRequest) async throws -> PushResponse {
            let index = pushes.withLock { pushes in
                pushes.append(request)
                return pushes.count - 1
            }
            var response = try await base.push(request)
            if let part = request.part, !part.isLast {
                let pulled = try await server.pull(PullRequest(replica: "observer", cursor: 0, limit: 10_000), tenant: "default")
                visibleMidway.withLock { $0.append(pulled.changes.count) }
            }
            if failingPush.withLock({ failing in
                defer { if failing == index { failing = nil } }
                return failing == index
            }) {
                throw BoutiqueError.syncUnavailable(reason: "the connection was lost after the server answered")
            }
            if hidesParts { response.acceptsTransactionParts = nil }
            return response
        }

        func pull(_ request: PullRequest) async throws -> PullResponse { try await base.pull(request) }
        func snapshot(_ request: SnapshotRequest) async throws -> SnapshotResponse { try await base.snapshot(request) }
        func membership(_ request: MembershipRequest, action: MembershipAction) async throws -> MembershipResponse {
            try await base.membership(request, action: action)
        }
    }

    static let options = SyncOptions(pushRowLimit: 50)

    /// One write of `count` notes, some edited and one deleted again in the same transaction.
    static func importNotes(_ count: Int, into database: DatabaseActor) async throws {
        try await database.write { conn in
            for index in 0..<count {
                try conn.execute("INSERT INTO note(id, title) VALUES (?, ?)", [.text(String(format: "n%05d", index)), .text("imported \(index)")])
            }
            // Rows changed twice in one transaction go as one change each.
            try conn.execute("UPDATE note SET title = 'edited' WHERE id IN ('n00000', 'n00100', 'n00399')")
            try conn.execute("DELETE FROM note WHERE id = 'n00200'")
        }
    }

    @Test(arguments: StoreKind.allCases) func aTransactionTooLargeForOnePushGoesInPartsAndArrivesWhole(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let server = SyncServer(store: store)
            let watching = WatchingTransport(server)
            let writer = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
            let sync = try await BoutiqueSync(database: writer, tables: ["note"], server: watching, options: Self.options)
            try await Self.importNotes(400, into: writer)
            let report = try await sync.synchronize()
            #expect(report.pushed == 400, "every row once (399 kept, one inserted and deleted again)")

            let parts = watching.pushes.withLock { $0.compactMap(\.part) }
            #expect(parts.count == 8, "400 rows, 50 to a part")
            #expect(parts.last?.isLast == true && parts.dropLast().allSatisfy { !$0.isLast })
            #expect(watching.pushes.withLock { $0.allSatisfy { $0.transactions.reduce(0) { $0 + $1.changes.count } <= 50 } })
            #expect(watching.visibleMidway.withLock { $0 } == Array(repeating: 0, count: 7), "nothing applied before the last part")
            #expect(await sync.status.pendingCount == 0)

            let reader = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
            let readerSync = try await BoutiqueSync(database: reader, tables: ["note"], server: .inProcess(server))
            _ = try await readerSync.synchronize()
            #expect(try await reader.rows("note") == writer.rows("note"))
            #expect(try await reader.rows("note").count == 399)
            #expect(try await reader.read { try $0.fetchOne("SELECT title FROM note WHERE id = 'n00100'")?["title"] } == .text("edited"))

            // And the next small write goes as ever.
            try await writer.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES ('after', 'one more')") }
            #expect(try await sync.synchronize().pushed == 1)
            _ = try await readerSync.synchronize()
            #expect(try await reader.rows("note").count == 400)
            await reader.close()
            await writer.close()
        }
    }

    @Test(arguments: StoreKind.allCases) func aLostConnectionResumesFromThePartTheServerHolds(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let server = SyncServer(store: store)
            let watching = WatchingTransport(server)
            let writer = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
            // The fourth push (the handshake, then parts) is handled by the server, its answer lost.
            watching.failingPush.withLock { $0 = 3 }
            let sync = try await BoutiqueSync(database: writer, tables: ["note"], server: watching, options: Self.options)
            try await Self.importNotes(400, into: writer)
            await #expect(throws: BoutiqueError.self) { try await sync.synchronize() }
            let sentBefore = watching.pushes.withLock { $0.count }
            // A new session (the app started again) resumes where the server is.
            let again = try await BoutiqueSync(database: writer, tables: ["note"], server: watching, options: Self.options)
            _ = try await again.synchronize()
            let resumed = watching.pushes.withLock { Array($0[sentBefore...]) }.compactMap(\.part)
            let held = try #require(resumed.first)
            #expect(held.from == 0, "a new session starts from the beginning")
            #expect(resumed.count == 1 + 5, "told where the server is (three parts), it sends the five parts it lacks, not all eight again")

            let reader = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
            _ = try await BoutiqueSync(database: reader, tables: ["note"], server: .inProcess(server)).synchronize()
            #expect(try await reader.rows("note") == writer.rows("note"))
            await reader.close()
            await writer.close()
        }
    }

    @Test(arguments: StoreKind.allCases) func aRefusedLargeTransactionIsUndoneAndLaterWritesStillGo(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            // The app's hook refuses one row of the import, in its fifth part.
            let server = SyncServer(store: store, authorize: { _, change in change.key != .text("n00222") })
            let writer = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
            let sync = try await BoutiqueSync(
                database: writer, tables: ["note"], server: WatchingTransport(server, user: "ana"), options: Self.options)
            try await writer.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES ('n00010', 'before the import')") }
            _ = try await sync.synchronize()
            let refusals = Lock<[SyncRefusal]>([])
            let stream = sync.refusals
            let listening = Task { for await refusal in stream { refusals.withLock { $0.append(refusal) } } }

            try await writer.write { conn in
                for index in 0..<400 {
                    try conn.execute(
                        "INSERT INTO note(id, title) VALUES (?, 'imported') ON CONFLICT(id) DO UPDATE SET title = 'imported'",
                        [.text(String(format: "n%05d", index))])
                }
            }
            try await writer.write { conn in try conn.execute("INSERT INTO note(id, title) VALUES ('later', 'after the import')") }
            _ = try await sync.synchronize()

            // The import is undone: the row the server had is back as it was, the others are gone.
            #expect(try await writer.rows("note") == [["later", "after the import", "NULL", "NULL"], ["n00010", "before the import", "NULL", "NULL"]])
            #expect(await sync.status.pendingCount == 0)
            try await waitUntil("the refusal is reported") { refusals.withLock { $0.count } == 1 }
            #expect(refusals.withLock { $0.first?.key } == .text("n00222"))
            listening.cancel()

            let reader = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
            _ = try await BoutiqueSync(database: reader, tables: ["note"], server: .inProcess(server)).synchronize()
            #expect(try await reader.rows("note") == writer.rows("note"), "the later write arrived, nothing of the import")
            await reader.close()
            await writer.close()
        }
    }

    @Test(arguments: StoreKind.allCases) func aTransactionLargerThanAPullPageArrivesOverSeveralPages(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let server = SyncServer(store: store)
            let writer = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
            let sync = try await BoutiqueSync(database: writer, tables: ["note"], server: .inProcess(server), options: Self.options)
            try await Self.importNotes(400, into: writer)
            _ = try await sync.synchronize()

            // Pages of 60 changes: the one server transaction of 399 goes in pieces of 256 (a
            // transaction of fewer would go whole, whatever the limit).
            let page = try await server.pull(PullRequest(replica: "observer", cursor: 0, limit: 60), tenant: "default")
            #expect(page.changes.count == 256 && page.hasMore, "a page's share of the transaction, not all of it")
            let reader = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
            let readerSync = try await BoutiqueSync(database: reader, tables: ["note"], server: .inProcess(server), options: Self.options)
            _ = try await readerSync.synchronize()
            try await writer.write { conn in try conn.execute("UPDATE note SET title = 'again' WHERE id LIKE 'n00%'") }
            _ = try await sync.synchronize()
            let pulling = try await BoutiqueSync(
                database: reader, tables: ["note"], server: .inProcess(server), options: SyncOptions(pushRowLimit: 50, pullLimit: 30))
            #expect(try await pulling.synchronize().applied == 399)
            #expect(try await reader.rows("note") == writer.rows("note"))
            await reader.close()
            await writer.close()
        }
    }

    @Test(arguments: StoreKind.allCases) func anImportIntoASharedListReachesTheOtherUserInPages(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            var app = try await SharedReminders(store: store)
            try await app.add("ana", options: Self.options)
            try await app.add("bob", options: SyncOptions(pullLimit: 40))
            try await app.write("ana", "INSERT INTO remindersList(id, title) VALUES ('L1', 'Groceries')")
            _ = try await app.sync("ana").synchronize()
            _ = try await app.sync("ana").share("remindersList", key: .text("L1"), with: "bob", role: .editor)
            _ = try await app.sync("bob").synchronize()
            try await app.database("ana").write { conn in
                for index in 0..<600 {
                    try conn.execute("INSERT INTO reminder(id, listID, title) VALUES (?, 'L1', 'item')", [.text("r\(index)")])
                }
            }
            #expect(try await app.sync("ana").synchronize().pushed == 600)
            // Bob's pages hold a page's share of the import, not the whole transaction.
            var cursor: Int64 = 0
            var largest = 0
            while true {
                let page = try await app.server.pull(PullRequest(replica: "bob-reader", cursor: cursor, limit: 40), tenant: "default", user: "bob")
                largest = max(largest, page.changes.count)
                guard page.hasMore else { break }
                cursor = page.nextCursor
            }
            // At most the limit, and the rest of the transaction when that rest is 256 changes or fewer.
            #expect(largest <= 40 + 256, "\(largest) changes in one page")
            _ = try await app.sync("bob").synchronize()
            #expect(try await app.rows("bob", "reminder").count == 600)
            #expect(try await app.rows("bob", "reminder") == app.rows("ana", "reminder"))
            await app.close()
        }
    }

    @Test func aServerThatTakesNoPartsGetsTheTransactionWhole() async throws {
        let server = try await makeServer()
        let watching = WatchingTransport(server, hidesParts: true)
        let writer = try await DatabaseActor.open(url: BoutiqueDB.inMemoryURL(), migrations: SyncTestSchema.plan)
        let sync = try await BoutiqueSync(database: writer, tables: ["note"], server: watching, options: Self.options)
        try await Self.importNotes(120, into: writer)
        #expect(try await sync.synchronize().pushed == 120)
        #expect(watching.pushes.withLock { $0.allSatisfy { $0.part == nil } })
        await writer.close()
    }
}
